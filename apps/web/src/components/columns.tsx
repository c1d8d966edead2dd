import { dayOf } from '../pages/tokens/scopes';
import type { Column } from './data-table';

/** The columns several lists show alike: a thing's name, its scopes, the day it was created. */
export const nameColumn = <T extends { name: string }>(): Column<T> => ({ header: 'Name', cell: (row) => <strong>{row.name}</strong> });

export const scopesColumn = <T extends { scopes: readonly string[] }>(): Column<T> => ({
  header: 'Scopes',
  cell: (row) => <span className="scopes">{row.scopes.join(' ')}</span>,
});

export const createdColumn = <T extends { createdAt: string }>(): Column<T> => ({ header: 'Created', cell: (row) => dayOf(row.createdAt) });
