import type { Link, LinkView, TagWithCount } from '@lnk/links/domain';
import type { Static } from '@lnk/shared/http';
import type { LinkListItemSchema, LinkSchema, TagSchema } from './links.schemas';
import type { ShortUrlBase } from './short-url-base';

/** `<SHORT_BASE_URL>/<slug>` on the default short domain, `<scheme>://<domain>/<slug>` on the link's custom domain. */
export function shortUrlOf(base: ShortUrlBase, slug: string, domainName: string | null): string {
  if (!domainName) return `${base.shortBaseUrl}/${slug}`;
  return `${base.customDomainScheme}://${domainName}/${slug}`;
}

function linkFields(link: Link, base: ShortUrlBase, domainName: string | null) {
  return {
    id: link.id,
    title: link.title,
    slug: link.slug,
    url: link.url,
    shortUrl: shortUrlOf(base, link.slug, domainName),
    description: link.description,
    status: link.status,
    domainId: link.domainId,
    hasPassword: link.hasPassword,
    createdAt: link.createdAt.toISOString(),
  };
}

/** The link's options (issue 18) that are set, and only those: a link without any shows the spec's fields alone. */
function optionFields(link: Link) {
  const o = link.options;
  return {
    ...(o.redirectType !== 302 ? { redirectType: o.redirectType } : {}),
    ...(o.expiresAt ? { expiresAt: o.expiresAt.toISOString() } : {}),
    ...(o.expiredUrl !== null ? { expiredUrl: o.expiredUrl } : {}),
    ...(o.maxVisits !== null ? { maxVisits: o.maxVisits, visitsUsed: o.visitsUsed } : {}),
    ...(o.utm ? { utm: o.utm } : {}),
    ...(o.targets ? { targets: o.targets } : {}),
  };
}

/**
 * One object literal, not linkFields spread into another: the list presents 20-100 of these per request, and
 * the spread's copy was the presenter's larger part of a list request's CPU profile (4-5%). A link's options
 * (rare) are added only when it has any.
 */
export function presentLinkListItem(link: Link, base: ShortUrlBase, domainNames: Map<string, string>): Static<typeof LinkListItemSchema> {
  const item = {
    id: link.id,
    title: link.title,
    slug: link.slug,
    url: link.url,
    shortUrl: shortUrlOf(base, link.slug, link.domainId ? (domainNames.get(link.domainId) ?? null) : null),
    description: link.description,
    status: link.status,
    domainId: link.domainId,
    hasPassword: link.hasPassword,
    createdAt: link.createdAt.toISOString(),
    clicks: link.clicks,
    updatedAt: link.updatedAt.toISOString(),
    isFavorite: link.isFavorite,
  };
  return link.hasOptions ? { ...item, ...optionFields(link) } : item;
}

/** The detail of spec 4.5, with clicks and the link's tags. */
export function presentLink(view: LinkView, base: ShortUrlBase): Static<typeof LinkSchema> {
  return {
    ...linkFields(view.link, base, view.domain?.name ?? null),
    clicks: view.link.clicks,
    tags: view.tags.map((t) => ({ id: t.id, name: t.name })),
    updatedAt: view.link.updatedAt.toISOString(),
    // Shown only when true, as the options are: a link never marked reads as the spec's.
    ...(view.link.isFavorite ? { isFavorite: true } : {}),
    ...optionFields(view.link),
  };
}

export function presentTag({ tag, linkCount }: TagWithCount): Static<typeof TagSchema> {
  return { id: tag.id, name: tag.name, isFavorite: tag.isFavorite, createdAt: tag.createdAt.toISOString(), linkCount };
}
