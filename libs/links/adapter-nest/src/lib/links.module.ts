import { ConfigurableModuleBuilder, Module, Provider } from '@nestjs/common';
import {
  BulkCreateLinksUseCase,
  BulkDeleteLinksUseCase,
  BulkTagLinksUseCase,
  CreateLinkUseCase,
  CreateTagUseCase,
  DeleteLinkUseCase,
  DeleteTagUseCase,
  GetTagUseCase,
  ExportLinksUseCase,
  FavoriteTagsUseCase,
  GetLinkUseCase,
  LinkViews,
  ImportLinksUseCase,
  LinkChanges,
  LinkCreation,
  LinkDomains,
  LinkEvents,
  LinkLists,
  LinkEventSink,
  LinkRepository,
  ListLinksUseCase,
  ListTagsUseCase,
  SlugGenerator,
  TagRepository,
  UpdateLinkUseCase,
  UpdateTagUseCase,
} from '@lnk/links/domain';
import { Clock, IdGenerator, PasswordHasher, QuotaPolicy, UnitOfWork } from '@lnk/shared/kernel';
import { providerOf } from '@lnk/shared/http';
import { LinksController, TagsController } from './links.controller';
import { LinksBulkController } from './links-bulk.controller';
import { LinksMcpTools } from './links.mcp-tools';
import { LINKS_PORTS, LinksPorts } from './links.ports';
import { LinksSettings } from './links.settings';
import { CachedQrRenderer, PiscinaQrRenderer, QrRenderer } from './qr-renderer';
import { ShortUrlBases } from './short-url-base';

export interface LinksModuleOptions {
  ports: LinksPorts;
  settings: LinksSettings;
}

/**
 * `LinksModule.forRootAsync({ inject, useFactory })`: the app gives the ports it bound and the settings
 * (Nest's ConfigurableModuleBuilder makes the methods and the options' provider).
 */
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: OPTIONS } = new ConfigurableModuleBuilder<LinksModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/** Each port under its abstract class, as the app bound it. */
const PORTS: Provider[] = Object.entries(LINKS_PORTS).map(([name, port]) => ({
  provide: port,
  inject: [OPTIONS],
  useFactory: ({ ports }: LinksModuleOptions) => ports[name as keyof LinksPorts],
}));

/** The domain's LinkCreation (an interface, so a token of this module's own): what every way of creating links shares. */
const LINK_CREATION = 'LinkCreation';

/** A change and its webhook event in one unit of work (the domain's LinkEventSink). */
const sink = (events: LinkEvents, unitOfWork: UnitOfWork): LinkEventSink => ({ events, unitOfWork });

/** Each use case, built from the ports it needs (injected by their classes), once for the app. */
const USE_CASES: Provider[] = [
  providerOf(LinkViews, [TagRepository, LinkDomains]),
  providerOf(GetLinkUseCase, [LinkRepository, LinkViews]),
  providerOf(ListLinksUseCase, [LinkLists]),
  providerOf(
    LINK_CREATION,
    [
      LinkRepository,
      TagRepository,
      LinkDomains,
      QuotaPolicy,
      PasswordHasher,
      SlugGenerator,
      IdGenerator,
      Clock,
      LinkChanges,
      LinksSettings,
    ],
    (links, tags, domains, quota, passwords, slugs, ids, clock, changes, settings): LinkCreation => ({
      links,
      tags,
      domains,
      quota,
      passwords,
      slugs,
      ids,
      clock,
      changes,
      config: { ownHosts: settings.ownHosts },
    }),
  ),
  {
    provide: CreateLinkUseCase,
    inject: [LINK_CREATION, LinkEvents, UnitOfWork],
    useFactory: (of: LinkCreation, events: LinkEvents, unitOfWork: UnitOfWork) => new CreateLinkUseCase(of, sink(events, unitOfWork)),
  },
  // A batch's writes in one transaction (a slug drawn again is written in it too); an import's, batch by batch.
  {
    provide: BulkCreateLinksUseCase,
    inject: [LINK_CREATION, LinkEvents, UnitOfWork],
    useFactory: (of: LinkCreation, events: LinkEvents, unitOfWork: UnitOfWork) =>
      new BulkCreateLinksUseCase(of, unitOfWork, sink(events, unitOfWork)),
  },
  {
    provide: ImportLinksUseCase,
    inject: [LINK_CREATION, LinkEvents, UnitOfWork],
    useFactory: (of: LinkCreation, events: LinkEvents, unitOfWork: UnitOfWork) =>
      new ImportLinksUseCase(of, unitOfWork, undefined, sink(events, unitOfWork)),
  },
  providerOf(ExportLinksUseCase, [LinkRepository, LinkViews]),
  providerOf(
    UpdateLinkUseCase,
    [LinkRepository, TagRepository, LinkDomains, PasswordHasher, Clock, LinksSettings, GetLinkUseCase, LinkChanges, LinkEvents, UnitOfWork],
    (links, tags, domains, passwords, clock, settings, getLink, changes, events, unitOfWork) =>
      new UpdateLinkUseCase({
        links,
        tags,
        domains,
        passwords,
        clock,
        config: { ownHosts: settings.ownHosts },
        getLink,
        changes,
        events: sink(events, unitOfWork),
      }),
  ),
  providerOf(
    DeleteLinkUseCase,
    [LinkRepository, Clock, LinkChanges, LinkEvents, UnitOfWork],
    (links, clock, changes, events, unitOfWork) => new DeleteLinkUseCase(links, clock, changes, sink(events, unitOfWork)),
  ),
  providerOf(
    BulkDeleteLinksUseCase,
    [LinkRepository, LinkChanges, Clock, LinkEvents, UnitOfWork],
    (links, changes, clock, events, unitOfWork) => new BulkDeleteLinksUseCase(links, changes, clock, sink(events, unitOfWork)),
  ),
  providerOf(
    BulkTagLinksUseCase,
    [LinkRepository, TagRepository, QuotaPolicy, IdGenerator, Clock, LinkEvents, UnitOfWork],
    (links, tags, quota, ids, clock, events, unitOfWork) =>
      new BulkTagLinksUseCase({ links, tags, quota, ids, clock, events: sink(events, unitOfWork) }),
  ),
  providerOf(CreateTagUseCase, [TagRepository, QuotaPolicy, IdGenerator, Clock]),
  providerOf(ListTagsUseCase, [TagRepository]),
  providerOf(FavoriteTagsUseCase, [TagRepository]),
  providerOf(GetTagUseCase, [TagRepository]),
  providerOf(UpdateTagUseCase, [TagRepository, Clock]),
  providerOf(DeleteTagUseCase, [TagRepository]),
];

/** The links context's controllers (the app's route walk and scope table read them before any app starts). */
export const LINKS_CONTROLLERS = [LinksController, LinksBulkController, TagsController];

/**
 * The links context's HTTP face: its controllers, its use cases built from the ports the app binds, and
 * what only its routes use (the short-URL bases, the QR renderer, closed with the app). The redirect path
 * (resolving and answering short URLs) is not here: the app composes it for its short-URL dispatch, as
 * apps/redirect does, and binds its cache as the LinkChanges port.
 */
@Module({
  controllers: LINKS_CONTROLLERS,
  providers: [
    ...PORTS,
    { provide: LinksSettings, inject: [OPTIONS], useFactory: ({ settings }: LinksModuleOptions) => settings },
    providerOf(ShortUrlBases, [LinksSettings]),
    { provide: QrRenderer, useFactory: () => new CachedQrRenderer(new PiscinaQrRenderer()) },
    ...USE_CASES,
    // Its tools for agents (the app's MCP endpoint finds them by their @McpTool methods).
    LinksMcpTools,
  ],
})
export class LinksModule extends ConfigurableModuleClass {}
