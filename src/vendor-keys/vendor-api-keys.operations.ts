import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiV1Errors, ApiV2Errors, type ErrorSpec } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreatedVendorApiKeyDto,
  CreatedVendorApiKeyEnvelopeDto,
  RevokedVendorApiKeyDto,
  VendorApiKeyEnvelopeDto,
  VendorApiKeyListDto,
  VendorApiKeysPageEnvelopeDto,
} from './dto/vendor-api-key.dto';
import {
  CREATE_DESCRIPTION,
  KEY_CAP_CONFLICT,
  KEY_EXAMPLE_ID,
  KEY_NOT_FOUND,
  LIST_DESCRIPTION,
  REVOKE_DESCRIPTION,
  VENDOR_EXAMPLE_ID,
  VENDOR_NOT_FOUND,
} from './vendor-api-keys.docs';

/**
 * One decorator per operation of the shop's administration of a vendor's API keys, shared by the v1
 * and V2 controllers: the generation picks the operationId, the body shape (bare or enveloped), the
 * error bodies and the idempotency replay. The route decorator stays in the controller.
 */
type Generation = 'v1' | 'v2';

const operationId = (api: Generation, v1Id: string) => (api === 'v1' ? v1Id : `${v1Id}V2`);
const errors = (api: Generation, ...specs: ErrorSpec[]) =>
  api === 'v1' ? ApiV1Errors(...specs) : ApiV2Errors(...specs);
const vendorParam = () => ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id');

export const CreateVendorApiKeyOperation = (api: Generation) =>
  applyDecorators(
    HttpCode(201),
    ApiOperation({
      operationId: operationId(api, 'createVendorApiKey'),
      summary: 'Create an API key for a vendor (vk_live_…); the key is shown only in this response',
      description: CREATE_DESCRIPTION,
    }),
    vendorParam(),
    ApiCreatedResponse({ type: api === 'v1' ? CreatedVendorApiKeyDto : CreatedVendorApiKeyEnvelopeDto }),
    // applyDecorators applies in list order (a stack applies bottom-up): the errors go first so the
    // idempotency replay's 409/422 wording follows the route's own, as it did in the stacked form.
    errors(api, 400, VENDOR_NOT_FOUND, KEY_CAP_CONFLICT, 422),
    Idempotent(api),
  );

export const ListVendorApiKeysOperation = (api: Generation) =>
  applyDecorators(
    ApiOperation({
      operationId: operationId(api, 'listVendorApiKeys'),
      summary:
        api === 'v1'
          ? "A vendor's API keys (never their secrets), newest first, revoked ones included"
          : "A vendor's API keys (never their secrets), newest first (cursor paging), revoked ones included",
      description: LIST_DESCRIPTION,
    }),
    vendorParam(),
    ApiOkResponse({ type: api === 'v1' ? VendorApiKeyListDto : VendorApiKeysPageEnvelopeDto }),
    errors(api, VENDOR_NOT_FOUND, 422),
  );

export const RevokeVendorApiKeyOperation = (api: Generation) =>
  applyDecorators(
    ApiOperation({
      operationId: operationId(api, 'revokeVendorApiKey'),
      summary: "Revoke a vendor's API key",
      description: REVOKE_DESCRIPTION,
    }),
    vendorParam(),
    ObjectIdParam('keyId', KEY_EXAMPLE_ID, 'Vendor API key id'),
    ApiOkResponse({ type: api === 'v1' ? RevokedVendorApiKeyDto : VendorApiKeyEnvelopeDto }),
    errors(api, KEY_NOT_FOUND),
    Idempotent(api),
  );
