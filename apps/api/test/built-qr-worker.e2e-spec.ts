import { call, operatorAccount, spawnBuiltApp, SpawnedApp, useBuiltApp } from './support/built-app';

/**
 * The QR renderer's worker thread loads a plain JavaScript file beside it (qr-draw.worker.js, in
 * libs/links/adapter-nest), which the build copies rather than compiles: the built app must find it there,
 * or every QR code is a 500 in production while the tests of the sources pass.
 */
describe('the built app drawing QR codes', () => {
  let app: SpawnedApp | undefined;
  const fixture = useBuiltApp(async () => app?.stop(5000));

  it('answers a link as a PNG QR code, drawn by the worker file the build copied', async () => {
    const { dist, db } = fixture();
    const account = await operatorAccount(dist, db.env, 'qr-build');
    app = await spawnBuiltApp(dist, db.env);
    const token: string = (await call(app.baseUrl, 'POST', '/oauth/token', { body: account.grant })).body.data.access_token;
    const created = await call(app.baseUrl, 'POST', '/user/link', { token, body: { url: 'https://example.com/printed', slug: 'printed' } });
    expect(created.status).toBe(200);
    const png = await fetch(`${app.baseUrl}/user/link/${created.body.data.id}/qr?size=128`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });
});
