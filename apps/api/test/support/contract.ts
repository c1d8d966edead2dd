import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';

interface Operation {
  pattern: RegExp;
  params: number;
  operation: OperationObject;
}

/**
 * Checks real answers against the app's OpenAPI document: the status must be documented for the route,
 * and a JSON body must validate against its schema (ajv). Routes outside the document (short URLs,
 * the documentation itself) are not checked.
 */
export class ResponseContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations = new Map<string, Operation[]>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'post', 'put', 'delete', 'patch'] as const) {
        const operation = item[method];
        if (!operation) continue;
        const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
        const list = this.operations.get(method) ?? [];
        list.push({ pattern, params: (path.match(/\{/g) ?? []).length, operation });
        this.operations.set(
          method,
          list.sort((a, b) => a.params - b.params),
        );
      }
    }
  }

  /** Problems with one answer; empty when it keeps the contract. */
  check(method: string, requestPath: string, status: number, contentType: string | null, body: unknown): string[] {
    const path = requestPath.split('?')[0].replace(/^\/v1(?=\/)/, '');
    const found = (this.operations.get(method.toLowerCase()) ?? []).find((o) => o.pattern.test(path));
    if (!found) return [];
    const where = `${method} ${path} -> ${status}`;
    const response = found.operation.responses[String(status)] as ResponseObject | undefined;
    if (!response) return [`${where}: status not documented (documented: ${Object.keys(found.operation.responses).join(', ')})`];
    if (!response.content || status === 204) return [];
    const type = (contentType ?? '').split(';')[0].trim();
    const media = response.content[type];
    if (!media)
      return [`${where}: content type ${type || '(none)'} not documented (documented: ${Object.keys(response.content).join(', ')})`];
    if (type !== 'application/json' || !media.schema) return [];
    const key = `${found.operation.operationId}:${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...media.schema, components: this.document.components });
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
