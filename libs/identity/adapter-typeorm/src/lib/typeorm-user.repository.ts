import { DataSource, Repository } from 'typeorm';
import { User, UserRepository } from '@lnk/identity/domain';
import { ValidationError } from '@lnk/shared/kernel';
import { UserRow, UserSchema } from './identity.schema';
import { isUniqueViolation } from '@lnk/shared/database';

export class TypeormUserRepository extends UserRepository {
  private readonly rows: Repository<UserRow>;

  constructor(dataSource: DataSource) {
    super();
    this.rows = dataSource.getRepository(UserSchema);
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.rows.findOneBy({ id });
    return row ? new User(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.rows.findOneBy({ email });
    return row ? new User(row) : null;
  }

  async insert(user: User): Promise<void> {
    try {
      await this.rows.insert(user.toProps());
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw ValidationError.field('email', 'email is already registered');
      throw error;
    }
  }
}
