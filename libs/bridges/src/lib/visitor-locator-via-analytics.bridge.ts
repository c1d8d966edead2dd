import { VisitorLocator, VisitorPlace } from '@lnk/links/domain';
import { ClickDimensions } from '@lnk/analytics/domain';

const COUNTRY_CODE = /^[A-Z]{2}$/;

/**
 * Links with targets ask analytics' click dimensions where a visitor is and on what: the same User-Agent
 * parser and offline country table that statistics count by. iOS and iPadOS are `ios`, Android `android`
 * (phone or tablet), any other desktop browser `desktop`; anything else is no device.
 */
export class VisitorLocatorViaAnalytics extends VisitorLocator {
  constructor(private readonly dimensions: ClickDimensions) {
    super();
  }

  locate(userAgent: string | undefined, ip: string): VisitorPlace {
    const traits = this.dimensions.traitsOf(userAgent, ip, undefined);
    const device = traits.os === 'iOS' ? 'ios' : traits.os === 'Android' ? 'android' : traits.device === 'desktop' ? 'desktop' : null;
    return { device, country: COUNTRY_CODE.test(traits.country) ? traits.country : null };
  }
}
