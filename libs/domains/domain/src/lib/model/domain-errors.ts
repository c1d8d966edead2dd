import { ValidationError } from '@lnk/shared/kernel';

/** Adding and verifying both refuse a name that another account has verified: it serves one account's links. */
export const takenElsewhere = () => ValidationError.field('name', 'another account has verified this domain');
