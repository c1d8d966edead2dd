import { createSocket } from 'node:dgram';
import { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import { NodeDnsResolver } from './node-dns.resolver';
import { CryptoChallengeGenerator } from './crypto-challenge.generator';

const { Packet } = dns2;

describe('NodeDnsResolver against DNS servers on loopback', () => {
  let server: ReturnType<typeof dns2.createServer>;
  let address: string;

  beforeAll(async () => {
    server = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        if (question.name === 'go.example.com') {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.CNAME,
            class: Packet.CLASS.IN,
            ttl: 60,
            domain: 'cname.lnk.test',
          } as unknown as (typeof response.answers)[number]);
        }
        if (question.name === '_lnk-challenge.go.example.com' && question.type === Packet.TYPE.TXT) {
          for (const data of [['v=spf1 -all'], ['abc', 'def']]) {
            response.answers.push({
              name: question.name,
              type: Packet.TYPE.TXT,
              class: Packet.CLASS.IN,
              ttl: 60,
              data,
            } as unknown as (typeof response.answers)[number]);
          }
        }
        if (question.name === 'apex.example.com' && question.type === Packet.TYPE.A) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.A,
            class: Packet.CLASS.IN,
            ttl: 60,
            address: '203.0.113.10',
          } as unknown as (typeof response.answers)[number]);
        }
        if (question.name === 'apex.example.com' && question.type === Packet.TYPE.AAAA) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.AAAA,
            class: Packet.CLASS.IN,
            ttl: 60,
            address: '2001:0DB8:0:0:0:0:0:0010',
          } as unknown as (typeof response.answers)[number]);
        }
        send(response);
      },
    });
    await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    address = `127.0.0.1:${(server.addresses() as { udp: { port: number } }).udp.port}`;
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads a CNAME record', async () => {
    await expect(new NodeDnsResolver({ servers: [address] }).cnameOf('go.example.com')).resolves.toEqual({
      kind: 'cname',
      targets: ['cname.lnk.test'],
    });
  });

  it('tells a name without a record apart', async () => {
    await expect(new NodeDnsResolver({ servers: [address] }).cnameOf('none.example.com')).resolves.toEqual({ kind: 'none' });
    await expect(new NodeDnsResolver({ servers: [address] }).txtOf('_lnk-challenge.none.example.com')).resolves.toEqual({ kind: 'none' });
  });

  it('reads TXT records, joining the strings of each record', async () => {
    const answer = await new NodeDnsResolver({ servers: [address] }).txtOf('_lnk-challenge.go.example.com');
    expect(answer.kind === 'txt' && [...answer.records].sort()).toEqual(['abcdef', 'v=spf1 -all']);
  });

  it('reads A and AAAA records, each address in one canonical spelling', async () => {
    const resolver = new NodeDnsResolver({ servers: [address] });
    await expect(resolver.addressesOf('apex.example.com', 'A')).resolves.toEqual({ kind: 'addresses', addresses: ['203.0.113.10'] });
    await expect(resolver.addressesOf('apex.example.com', 'AAAA')).resolves.toEqual({ kind: 'addresses', addresses: ['2001:db8::10'] });
    await expect(resolver.addressesOf('none.example.com', 'AAAA')).resolves.toEqual({ kind: 'none' });
  });

  it('gives up on a server that never answers', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      await expect(new NodeDnsResolver({ servers: [`127.0.0.1:${port}`], timeoutMs: 300 }).cnameOf('go.example.com')).resolves.toEqual({
        kind: 'timeout',
      });
    } finally {
      silent.close();
    }
  });
});

describe('CryptoChallengeGenerator', () => {
  it('makes challenges of 128 random bits that never repeat', () => {
    const generator = new CryptoChallengeGenerator();
    const values = new Set(Array.from({ length: 100 }, () => generator.next()));
    expect(values.size).toBe(100);
    for (const value of values) expect(value).toMatch(/^[0-9a-f]{32}$/);
  });
});
