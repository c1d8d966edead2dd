import { ConfigurableModuleBuilder, Module, Provider } from '@nestjs/common';
import {
  AddDomainUseCase,
  AllowCertificateUseCase,
  ChallengeGenerator,
  DeleteDomainUseCase,
  DnsResolver,
  DomainRepository,
  DomainUsage,
  DomainVerificationListener,
  ListDomainsUseCase,
  VerifyDomainUseCase,
} from '@lnk/domains/domain';
import { Clock, IdGenerator, QuotaPolicy } from '@lnk/shared/kernel';
import { providerOf } from '@lnk/shared/http';
import { DomainsController } from './domains.controller';
import { DOMAINS_PORTS, DomainsPorts } from './domains.ports';
import { DomainsSettings } from './domains.settings';
import { TlsAskController } from './tls-ask.controller';
import { DomainsMcpTools } from './domains.mcp-tools';

export interface DomainsModuleOptions {
  ports: DomainsPorts;
  settings: DomainsSettings;
  /**
   * The TLS proxy's question, built by the app: its answers are cached, and the app empties that cache
   * when a domain's verification changes on any instance and while Redis is away.
   */
  certificates: AllowCertificateUseCase;
}

/**
 * `DomainsModule.forRootAsync({ inject, useFactory })`: the app gives the ports it bound, the settings and
 * the TLS ask (Nest's ConfigurableModuleBuilder makes the methods and the options' provider).
 */
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: OPTIONS } = new ConfigurableModuleBuilder<DomainsModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/** Each port under its abstract class, as the app bound it. */
const PORTS: Provider[] = Object.entries(DOMAINS_PORTS).map(([name, port]) => ({
  provide: port,
  inject: [OPTIONS],
  useFactory: ({ ports }: DomainsModuleOptions) => ports[name as keyof DomainsPorts],
}));

/** Where a custom domain's DNS records must point. */
const routingOf = (settings: DomainsSettings) => ({ host: settings.dnsTarget, addresses: settings.dnsTargetAddresses });

/** Each use case, built from the ports it needs (injected by their classes), once for the app. */
const USE_CASES: Provider[] = [
  providerOf(
    AddDomainUseCase,
    [DomainRepository, QuotaPolicy, IdGenerator, ChallengeGenerator, Clock, DomainsSettings],
    (domains, quota, ids, challenges, clock, settings) =>
      new AddDomainUseCase({ domains, quota, ids, challenges, clock, config: { ownHosts: settings.ownHosts } }),
  ),
  providerOf(ListDomainsUseCase, [DomainRepository]),
  providerOf(
    VerifyDomainUseCase,
    [DomainRepository, DnsResolver, Clock, DomainVerificationListener, DomainsSettings],
    (domains, dns, clock, changes, settings) =>
      new VerifyDomainUseCase({ domains, dns, clock, listener: changes, config: { target: routingOf(settings) } }),
  ),
  providerOf(DeleteDomainUseCase, [DomainRepository, DomainUsage, DomainVerificationListener]),
];

/** The domains context's controllers (the app's route walk and scope table read them before any app starts). */
export const DOMAINS_CONTROLLERS = [DomainsController, TlsAskController];

/**
 * The domains context's HTTP face: custom domains and the TLS proxy's ask, with their use cases built from
 * the ports the app binds. The re-check of verified domains runs on the app's timer.
 */
@Module({
  controllers: DOMAINS_CONTROLLERS,
  providers: [
    ...PORTS,
    { provide: DomainsSettings, inject: [OPTIONS], useFactory: ({ settings }: DomainsModuleOptions) => settings },
    { provide: AllowCertificateUseCase, inject: [OPTIONS], useFactory: ({ certificates }: DomainsModuleOptions) => certificates },
    ...USE_CASES,
    // Its tool for agents (the app's MCP endpoint finds it by its @McpTool method).
    DomainsMcpTools,
  ],
})
export class DomainsModule extends ConfigurableModuleClass {}
