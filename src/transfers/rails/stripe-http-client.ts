import Stripe from 'stripe';
import { OutboundHttpError, OutboundPolicy, outboundRequest } from '../../common/http/outbound/outbound-http';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The SDK's answer object over an outbound-helper response (the body is read already). */
class GuardedResponse extends Stripe.HttpClientResponse {
  constructor(
    status: number,
    headers: Record<string, string>,
    private readonly body: Buffer,
  ) {
    super(status, headers);
  }

  override getRawResponse(): unknown {
    return this.body;
  }

  override toStream(streamCompleteCallback: () => void): unknown {
    streamCompleteCallback();
    return this.body;
  }

  override toJSON(): Promise<unknown> {
    return Promise.resolve(JSON.parse(this.body.toString('utf8') || '{}'));
  }
}

/**
 * The Stripe SDK's transport, through the project's one guarded outbound helper (DESIGN §11): the
 * SDK builds and signs nothing we could not see, and the guard decides scheme, host and address.
 * A refusal or network failure becomes the SDK's connection error (StripeConnectionError), which
 * the SDK retries per `maxNetworkRetries` and the rail treats as an outage.
 */
export class GuardedStripeHttpClient extends Stripe.HttpClient {
  constructor(private readonly policy: OutboundPolicy) {
    super();
  }

  override getClientName(): string {
    return 'marketplace-outbound';
  }

  override async makeRequest(
    host: string,
    port: string,
    path: string,
    method: string,
    headers: Record<string, string | number | string[]>,
    requestData: string,
    protocol: string,
    timeout: number,
  ): Promise<InstanceType<typeof Stripe.HttpClientResponse>> {
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    const defaultPort = protocol === 'http' ? '80' : '443';
    const origin = `${protocol}://${host}${port && String(port) !== defaultPort ? `:${port}` : ''}`;
    try {
      const res = await outboundRequest(
        {
          method: method.toUpperCase() as Method,
          url: origin + path,
          headers: flat,
          body: requestData || undefined,
        },
        { ...this.policy, timeoutMs: Math.min(timeout, this.policy.timeoutMs ?? timeout) },
      );
      return new GuardedResponse(res.status, res.headers, res.body);
    } catch (err) {
      if (err instanceof OutboundHttpError && err.reason === 'timeout')
        throw Stripe.HttpClient.makeTimeoutError();
      throw err;
    }
  }
}
