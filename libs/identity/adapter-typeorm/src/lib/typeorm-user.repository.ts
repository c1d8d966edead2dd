import { DataSource } from 'typeorm';
import { User, UserRepository } from '@lnk/identity/domain';
import { ValidationError } from '@lnk/shared/kernel';
import { isUniqueViolation, managerOf, sql } from '@lnk/shared/database';
import { UserRow, UserSchema } from './identity.schema';

const emailTaken = () => ValidationError.field('email', 'email is already registered');

export class TypeormUserRepository extends UserRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get rows() {
    return managerOf(this.dataSource).getRepository<UserRow>(UserSchema);
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
      if (isUniqueViolation(error, 'users_email_key')) throw emailTaken();
      throw error;
    }
  }

  async update(user: User): Promise<void> {
    const { id, ...changes } = user.toProps();
    try {
      await this.rows.update({ id }, changes);
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw emailTaken();
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM users WHERE id = $1', [id])).affected > 0;
  }
}
