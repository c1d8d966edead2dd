// The short-URL edge alone (`@lnk/composition/edge`), for the redirect app: the index loads Nest and every
// context, this entry point only what answering a short URL needs (the API composes the same edge).
export {
  composeShortUrlEdge,
  hearOtherInstances,
  type InstanceChanges,
  type ShortUrlEdge,
  type ShortUrlEdgeParts,
  type ShortUrlEdgeSettings,
} from './lib/edge/short-url-edge.composition';
