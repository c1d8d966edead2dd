import { named, object, string } from '../openapi/schema';

export const HealthSchema = named('Health', object({ status: string, database: string }, ['database']));
