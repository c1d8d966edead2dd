import { object, string } from '@lnk/shared/http';

export const HomeSchema = object({ name: string, version: string, docs: string, openapi: string });
