import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import {
  CreateLinkUseCase,
  CreateTagUseCase,
  DeleteLinkUseCase,
  DeleteTagUseCase,
  FavoriteTagsUseCase,
  GetLinkUseCase,
  ListLinksUseCase,
  ListTagsUseCase,
  UpdateLinkUseCase,
  UpdateTagUseCase,
} from '@lnk/links/domain';
import { TypeormLinkRepository, TypeormTagRepository } from '@lnk/links/adapter-typeorm';
import { BcryptLinkPasswordHasher, CryptoSlugGenerator } from '@lnk/links/adapter-crypto';
import { AddDomainUseCase, DeleteDomainUseCase, ListDomainsUseCase, VerifyDomainUseCase } from '@lnk/domains/domain';
import { TypeormDomainRepository } from '@lnk/domains/adapter-typeorm';
import { NodeDnsResolver } from '@lnk/domains/adapter-dns';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { AccountDataBridge } from '../bridges/account-data.bridge';
import { ConfiguredQuotaPolicy, DomainsForLinks, LinksForDomains } from '../bridges/context-bridges';
import { AppConfig } from '../config/app-config';
import { composeIdentity } from './identity.composition';

/** Every context with its ports bound to adapters, and the bridges between contexts: the composition root. */
export function composeContexts(dataSource: DataSource, config: AppConfig, logger: Logger) {
  const ids = new ObjectIdGenerator();
  const clock = new SystemClock();
  const quota = new ConfiguredQuotaPolicy(config.defaultQuota);

  const linkRepository = new TypeormLinkRepository(dataSource);
  const tagRepository = new TypeormTagRepository(dataSource);
  const domainRepository = new TypeormDomainRepository(dataSource);
  const linkDomains = new DomainsForLinks(domainRepository);
  const linksConfig = { ownHosts: config.ownHosts };
  const getLink = new GetLinkUseCase(linkRepository, tagRepository, linkDomains);
  const linkPasswords = new BcryptLinkPasswordHasher(config.bcryptCost);

  const links = {
    create: new CreateLinkUseCase(linkRepository, tagRepository, linkDomains, quota, linkPasswords, new CryptoSlugGenerator(), ids, clock, linksConfig),
    get: getLink,
    list: new ListLinksUseCase(linkRepository, linkDomains),
    update: new UpdateLinkUseCase(linkRepository, tagRepository, linkDomains, linkPasswords, clock, linksConfig, getLink),
    delete: new DeleteLinkUseCase(linkRepository, clock),
    createTag: new CreateTagUseCase(tagRepository, quota, ids, clock),
    listTags: new ListTagsUseCase(tagRepository),
    favoriteTags: new FavoriteTagsUseCase(tagRepository),
    updateTag: new UpdateTagUseCase(tagRepository, clock),
    deleteTag: new DeleteTagUseCase(tagRepository),
  };

  const domains = {
    add: new AddDomainUseCase(domainRepository, quota, ids, clock, { ownHosts: config.ownHosts }),
    list: new ListDomainsUseCase(domainRepository),
    verify: new VerifyDomainUseCase(domainRepository, new NodeDnsResolver({ servers: config.dnsServers, timeoutMs: 3000 }), clock, { target: config.dnsTarget }),
    delete: new DeleteDomainUseCase(domainRepository, new LinksForDomains(linkRepository)),
  };

  // Account limits and account deletion reach into every context that holds an account's data.
  const accountData = new AccountDataBridge(
    [
      { resource: 'links', count: (id) => linkRepository.countOfOwner(id), erase: (id) => linkRepository.deleteAllOfOwner(id) },
      { resource: 'tags', count: (id) => tagRepository.countOfOwner(id), erase: (id) => tagRepository.deleteAllOfOwner(id) },
      { resource: 'domains', count: (id) => domainRepository.countOfOwner(id), erase: (id) => domainRepository.deleteAllOfOwner(id) },
    ],
    quota,
  );
  const identity = composeIdentity(dataSource, config, logger, { eraser: accountData, usage: accountData });

  return { identity, links, domains };
}

export type Contexts = ReturnType<typeof composeContexts>;
export type Links = Contexts['links'];
export type Domains = Contexts['domains'];
