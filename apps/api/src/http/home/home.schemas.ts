import { object, string } from '../../openapi/schema';

export const HomeSchema = object({ name: string, version: string, docs: string, openapi: string });
