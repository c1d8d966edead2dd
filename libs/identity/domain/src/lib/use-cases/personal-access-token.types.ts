export interface CreatePatCommand {
  name: string;
  description?: string;
  scopes: string[];
  expiresAt?: Date | null;
}
