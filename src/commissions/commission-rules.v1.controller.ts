import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound, type ErrorDoc } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { answerStatus } from '../idempotency/answer-status';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { CommissionRulesService } from './commission-rules.service';
import {
  CommissionRuleBodyDto,
  CommissionRuleDryRunDto,
  CommissionRuleDto,
  CommissionRuleListDto,
  CommissionRuleListQueryDto,
  DeletedCommissionRuleDto,
  DryRunQueryDto,
  V1RuleConflictDto,
} from './dto/commission-rule.dto';

const RULE_ID = ['ruleId', '6750c3d4e5f6a7b8c9d0e1f2', 'Commission rule id'] as const;
const NOT_FOUND = notFound('Commission rule');
const OVERLAP: ErrorDoc = {
  status: 409,
  description:
    'Another rule of the same level, target and vendor (or another shop-wide one) is in force for part of ' +
    'this interval; `conflictingRuleId` names it',
  message:
    'Overlaps commission rule 6750c3d4e5f6a7b8c9d0e1f2 (same level, target and vendor; intervals are [validFrom, validTo))',
  extra: { conflictingRuleId: '6750c3d4e5f6a7b8c9d0e1f2' },
  v1Type: V1RuleConflictDto,
};
/** POST also answers 409 for an Idempotency-Key still in flight (the Idempotent decorator's 409, reworded here). */
const OVERLAP_OR_IN_FLIGHT: ErrorDoc = {
  ...OVERLAP,
  description: `${OVERLAP.description}; or a request with the same Idempotency-Key is still being processed (see Retry-After)`,
};
const RULES =
  'A rule sets the commission of the lines of one product (`level` product, `productId`) or one product type ' +
  '(`level` productType, `productType`, any letter case), for one vendor (`vendorId`) or every vendor (omitted). ' +
  'The ladder: SKU record > product rule > product-type rule > vendor; a vendor rule beats the shop-wide one of ' +
  "the same target. It applies to a line when the order's created_at is in [validFrom, validTo). Two rules of " +
  'the same level, target and vendor may not overlap in time (409 naming the other; adjacent intervals do not ' +
  'overlap). Every write is audited (`resourceType=commission_rule`) and emits a `commission_rule.*` event. ' +
  '`?dryRun=true` validates everything, writes nothing and answers 200 with the rule as it would be and ' +
  '`affectedLines` / `payoutDelta` over the unpaid, unfrozen lines.';

@ApiTags('Commissions')
@ApiExtraModels(CommissionRuleDto, CommissionRuleDryRunDto)
@V1Auth('shop')
@Controller('v1/commissions/rules')
export class CommissionRulesV1Controller {
  constructor(private readonly rules: CommissionRulesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createCommissionRule',
    summary: 'Create a commission rule',
    description: RULES,
  })
  @ApiResponse({ status: 201, description: 'The rule, as stored', type: CommissionRuleDto })
  @ApiOkResponse({ description: '`dryRun=true`: nothing written', type: CommissionRuleDryRunDto })
  @ApiV1Errors(400, OVERLAP_OR_IN_FLIGHT, 422)
  @Idempotent('v1')
  async create(
    @Scope() scope: ShopScope,
    @Query() query: DryRunQueryDto,
    @Body() body: CommissionRuleBodyDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommissionRuleDto | CommissionRuleDryRunDto> {
    if (query.dryRun !== 'true') return this.rules.create(scope, body);
    const answer = await this.rules.dryRun(scope, null, body);
    answerStatus(reply, 200);
    return answer;
  }

  @Get()
  @ApiOperation({
    operationId: 'listCommissionRules',
    summary: "The shop's commission rules, newest first",
    description: 'Filters combine (all must hold). `activeAt`: rules in force at that instant.',
  })
  @ApiOkResponse({ type: CommissionRuleListDto })
  @ApiV1Errors(422)
  list(
    @Scope() scope: ShopScope,
    @Query() query: CommissionRuleListQueryDto,
  ): Promise<CommissionRuleListDto> {
    return this.rules.list(scope, query);
  }

  @Get(':ruleId')
  @ApiOperation({
    operationId: 'getCommissionRule',
    summary: 'One commission rule',
    description: "Another shop's rule, an unknown or a malformed id: 404.",
  })
  @ObjectIdParam(...RULE_ID)
  @ApiOkResponse({ type: CommissionRuleDto })
  @ApiV1Errors(NOT_FOUND)
  get(@Scope() scope: ShopScope, @Param('ruleId') id: string): Promise<CommissionRuleDto> {
    return this.rules.get(scope, id);
  }

  @Put(':ruleId')
  @ApiOperation({
    operationId: 'replaceCommissionRule',
    summary: 'Replace a commission rule (every field; omitted optional ones become null)',
    description:
      'The same checks as a create; the overlap check leaves the rule itself out. Lines already calculated ' +
      'keep their figures until they are recalculated. ' +
      '`?dryRun=true`: validate, write nothing, answer the estimate.',
  })
  @ObjectIdParam(...RULE_ID)
  @ApiOkResponse({
    description: 'The rule as stored now; with `dryRun=true`, `{rule, affectedLines, payoutDelta}`',
    schema: {
      oneOf: [{ $ref: getSchemaPath(CommissionRuleDto) }, { $ref: getSchemaPath(CommissionRuleDryRunDto) }],
    },
  })
  @ApiV1Errors(400, NOT_FOUND, OVERLAP, 422)
  replace(
    @Scope() scope: ShopScope,
    @Param('ruleId') id: string,
    @Query() query: DryRunQueryDto,
    @Body() body: CommissionRuleBodyDto,
  ): Promise<CommissionRuleDto | CommissionRuleDryRunDto> {
    return query.dryRun === 'true' ? this.rules.dryRun(scope, id, body) : this.rules.replace(scope, id, body);
  }

  @Delete(':ruleId')
  @ApiOperation({
    operationId: 'deleteCommissionRule',
    summary: 'Delete a commission rule',
    description: 'Lines already calculated keep their figures until they are recalculated.',
  })
  @ObjectIdParam(...RULE_ID)
  @ApiOkResponse({ type: DeletedCommissionRuleDto })
  @ApiV1Errors(NOT_FOUND)
  remove(@Scope() scope: ShopScope, @Param('ruleId') id: string): Promise<DeletedCommissionRuleDto> {
    return this.rules.remove(scope, id);
  }
}
