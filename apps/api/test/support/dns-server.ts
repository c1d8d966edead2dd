import dns2 from 'dns2';

const { Packet } = dns2;

/** A real DNS server on a loopback UDP port that answers CNAME, TXT, A and AAAA questions from tables a test fills. */
export async function startDnsServer(): Promise<{
  address: string;
  cnames: Map<string, string>;
  txts: Map<string, string[]>;
  as: Map<string, string[]>;
  aaaas: Map<string, string[]>;
  close(): Promise<void>;
}> {
  const cnames = new Map<string, string>();
  const txts = new Map<string, string[]>();
  const as = new Map<string, string[]>();
  const aaaas = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const target = cnames.get(question.name.toLowerCase());
      if (target && (question.type === Packet.TYPE.CNAME || question.type === Packet.TYPE.A)) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.CNAME,
          class: Packet.CLASS.IN,
          ttl: 60,
          domain: target,
        } as unknown as (typeof response.answers)[number]);
      }
      if (question.type === Packet.TYPE.A) {
        for (const address of as.get(question.name.toLowerCase()) ?? []) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.A,
            class: Packet.CLASS.IN,
            ttl: 60,
            address,
          } as unknown as (typeof response.answers)[number]);
        }
      }
      if (question.type === Packet.TYPE.AAAA) {
        for (const address of aaaas.get(question.name.toLowerCase()) ?? []) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.AAAA,
            class: Packet.CLASS.IN,
            ttl: 60,
            address,
          } as unknown as (typeof response.answers)[number]);
        }
      }
      if (question.type === Packet.TYPE.TXT) {
        for (const data of txts.get(question.name.toLowerCase()) ?? []) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 60,
            data,
          } as unknown as (typeof response.answers)[number]);
        }
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { udp } = server.addresses() as { udp: { port: number } };
  return { address: `127.0.0.1:${udp.port}`, cnames, txts, as, aaaas, close: async () => void (await server.close()) };
}
