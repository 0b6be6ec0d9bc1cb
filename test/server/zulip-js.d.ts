// The part of zulip-js (the public JavaScript client, which ships no types) the tests use.
declare module 'zulip-js' {
  type Params = Record<string, unknown>;
  type Reply = Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  interface ZulipClient {
    callEndpoint(endpoint: string, method?: string, params?: Params): Reply;
    queues: { register(params: Params): Reply };
    events: { retrieve(params: Params): Reply };
    users: { me: { getProfile(): Reply } };
    messages: { retrieve(params: Params): Reply };
  }
  export default function zulip(config: {
    username: string;
    apiKey: string;
    realm: string;
  }): Promise<ZulipClient>;
}
