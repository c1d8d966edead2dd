import { sessionFetch } from './session-fetch';

describe("the API client's fetch", () => {
  const answers = (...statuses: number[]) => {
    const sent: { authorization: string | null; body: string }[] = [];
    const send = async (input: RequestInfo | URL) => {
      const request = input as Request;
      sent.push({ authorization: request.headers.get('authorization'), body: await request.text() });
      return new Response(null, { status: statuses[sent.length - 1] ?? 500 });
    };
    return { send: send as typeof fetch, sent };
  };
  const post = (token: string) =>
    new Request('http://lnk.test/user/tokens', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{"name":"ci"}' });

  it('sends a request refused with 401 once more, with the token the session refreshed, body included', async () => {
    const { send, sent } = answers(401, 200);
    const rejected = jest.fn(async () => 'at_new');
    const response = await sessionFetch({ rejected }, send)(post('at_old'));
    expect(response.status).toBe(200);
    expect(rejected).toHaveBeenCalledWith('at_old');
    expect(sent).toEqual([
      { authorization: 'Bearer at_old', body: '{"name":"ci"}' },
      { authorization: 'Bearer at_new', body: '{"name":"ci"}' },
    ]);
  });

  it('lets the 401 stand when the session has ended, and never loops', async () => {
    const { send, sent } = answers(401, 401);
    const response = await sessionFetch({ rejected: async () => undefined }, send)(post('at_old'));
    expect(response.status).toBe(401);
    expect(sent).toHaveLength(1);
    const again = answers(401, 401);
    expect((await sessionFetch({ rejected: async () => 'at_new' }, again.send)(post('at_old'))).status).toBe(401);
    expect(again.sent).toHaveLength(2);
  });

  it('leaves other answers and requests without a token alone', async () => {
    const { send, sent } = answers(403, 401);
    const rejected = jest.fn(async () => 'at_new');
    expect((await sessionFetch({ rejected }, send)(post('at_old'))).status).toBe(403);
    expect((await sessionFetch({ rejected }, send)(new Request('http://lnk.test/health'))).status).toBe(401);
    expect(rejected).not.toHaveBeenCalled();
    expect(sent).toHaveLength(2);
  });
});
