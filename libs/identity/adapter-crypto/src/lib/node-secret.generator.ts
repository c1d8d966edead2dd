import { randomBytes } from 'node:crypto';
import { SecretGenerator } from '@lnk/identity/domain';

export class NodeSecretGenerator extends SecretGenerator {
  generate(bytes: number): string {
    return randomBytes(bytes).toString('base64url');
  }
}
