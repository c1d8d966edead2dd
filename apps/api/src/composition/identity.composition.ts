import { DataSource } from 'typeorm';
import { CreateOAuthClientUseCase, RegisterUserUseCase } from '@lnk/identity/domain';
import { BcryptPasswordHasher, NodeSecretGenerator, Sha256SecretHasher } from '@lnk/identity/adapter-crypto';
import { TypeormOAuthClientRepository, TypeormUserRepository } from '@lnk/identity/adapter-typeorm';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { AppConfig } from '../config/app-config';

/** The identity context's ports bound to their adapters, for the HTTP app and the operator CLI alike. */
export function composeIdentity(dataSource: DataSource, config: AppConfig) {
  const users = new TypeormUserRepository(dataSource);
  const clients = new TypeormOAuthClientRepository(dataSource);
  const ids = new ObjectIdGenerator();
  const clock = new SystemClock();
  return {
    users,
    clients,
    registerUser: new RegisterUserUseCase(users, new BcryptPasswordHasher(config.bcryptCost), ids, clock),
    createOAuthClient: new CreateOAuthClientUseCase(clients, users, new NodeSecretGenerator(), new Sha256SecretHasher(), ids, clock),
  };
}
