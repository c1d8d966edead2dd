import type { OpenAPIObject } from '@nestjs/swagger';
import { documentText } from './document-export';

describe('documentText: the OpenAPI document as the SDK is generated from it', () => {
  it('writes every object with its keys sorted, at any depth, and arrays in their own order', () => {
    const document = {
      paths: { '/b': { get: { responses: { '400': {}, '200': {} } } }, '/a': {} },
      openapi: '3.0.0',
      info: { version: '1', title: 't' },
      tags: [{ name: 'z' }, { name: 'a', description: 'd' }],
    };
    const inOrder = {
      info: { title: 't', version: '1' },
      openapi: '3.0.0',
      paths: { '/a': {}, '/b': { get: { responses: { '200': {}, '400': {} } } } },
      tags: [{ name: 'z' }, { description: 'd', name: 'a' }],
    };
    expect(documentText(document as unknown as OpenAPIObject)).toBe(`${JSON.stringify(inOrder, null, 2)}\n`);
  });

  it('writes the same text for the same document whatever order its keys were declared in', () => {
    const one = { info: { title: 't', version: '1' }, paths: { '/x': { get: {}, put: {} } } };
    const other = { paths: { '/x': { put: {}, get: {} } }, info: { version: '1', title: 't' } };
    expect(documentText(one as unknown as OpenAPIObject)).toBe(documentText(other as unknown as OpenAPIObject));
  });
});
