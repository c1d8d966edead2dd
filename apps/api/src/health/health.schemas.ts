import { named, object, string } from '@lnk/shared/http';

export const HealthSchema = named('Health', object({ status: string, database: string }, ['database']));
