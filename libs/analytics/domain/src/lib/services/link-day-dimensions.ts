import type { ClickTrigger } from '../model/click-to-count';
import { ClickCounts } from '../model/click';
import { CLICK_DIMENSIONS, DimensionCounts, isBoundedValue, OTHER_VALUE, VisitorTraits } from '../model/click-dimension';

/** Distinct visitor profiles a (day, link) keeps as such before counting per dimension value. */
const PROFILES = 4;

/**
 * One (UTC day, link)'s counted visits by dimension, in the ClickBuffer, bounded.
 *
 * The visits of the first few visitor profiles (a traits object as the ClickDimensions adapter hands it
 * out, which is the same object for a repeated visitor, and a trigger) are kept as such: most (day, link)s
 * see one or two in a flush interval, and a visit then costs a comparison and an increment, where six map
 * updates per visit, and six maps per link, took a good part of the buffer's time and memory. Further
 * profiles, and the rollup rows at the end, are counted per value of each dimension, an open dimension
 * holding at most `maxValues` bounded values (isBoundedValue), `(other)` taking the visits of any further one.
 */
export class LinkDayDimensions {
  private readonly traits: VisitorTraits[] = [];
  private readonly triggers: ClickTrigger[] = [];
  private readonly visits: number[] = [];
  /** Per dimension (CLICK_DIMENSIONS order): visits per value, and how many bounded values it holds. */
  private values: Map<string, number>[] | null = null;
  private bounded: number[] = [];

  constructor(
    readonly row: Pick<ClickCounts, 'date' | 'linkId' | 'ownerId' | 'domainId'>,
    private readonly maxValues: number,
  ) {}

  add(traits: VisitorTraits, trigger: ClickTrigger, visits: number): void {
    for (let i = 0; i < this.traits.length; i++) {
      if (this.traits[i] === traits && this.triggers[i] === trigger) {
        this.visits[i] += visits;
        return;
      }
    }
    if (this.traits.length < PROFILES) {
      this.traits.push(traits);
      this.triggers.push(trigger);
      this.visits.push(visits);
    } else this.addValues(traits, trigger, visits);
  }

  /** Adds another tally of the same (day, link) (a batch kept after a failed write). */
  addAll(other: LinkDayDimensions): void {
    other.traits.forEach((traits, i) => this.add(traits, other.triggers[i], other.visits[i]));
    other.values?.forEach((counts, index) => counts.forEach((visits, value) => this.addValue(index, value, visits)));
  }

  /** The rollup rows; the first profiles (usually the busiest) take the bounded slots before later values. */
  rows(): DimensionCounts[] {
    if (!this.values && this.maxValues >= PROFILES) return this.profileRows();
    const later = this.values;
    this.values = null;
    this.traits.forEach((traits, i) => this.addValues(traits, this.triggers[i], this.visits[i]));
    this.traits.length = this.triggers.length = this.visits.length = 0;
    later?.forEach((counts, index) => counts.forEach((visits, value) => this.addValue(index, value, visits)));
    const { date, linkId, ownerId, domainId } = this.row;
    const folded: Map<string, number>[] = this.values ?? [];
    return folded.flatMap((counts, index) =>
      [...counts].map(([value, visits]) => ({ date, linkId, ownerId, domainId, dimension: CLICK_DIMENSIONS[index], value, visits })),
    );
  }

  /**
   * The rows of the profiles alone (the usual case, no map made): equal values of a dimension summed by a
   * scan of its few rows. Four profiles cannot pass the bound, which is at least PROFILES here.
   */
  private profileRows(): DimensionCounts[] {
    const { date, linkId, ownerId, domainId } = this.row;
    const rows: DimensionCounts[] = [];
    for (let index = 0; index < CLICK_DIMENSIONS.length; index++) {
      const first = rows.length;
      for (let i = 0; i < this.traits.length; i++) {
        const value = valueOf(this.traits[i], this.triggers[i], index);
        let row: DimensionCounts | undefined;
        for (let j = first; j < rows.length && !row; j++) if (rows[j].value === value) row = rows[j];
        if (row) row.visits += this.visits[i];
        else rows.push({ date, linkId, ownerId, domainId, dimension: CLICK_DIMENSIONS[index], value, visits: this.visits[i] });
      }
    }
    return rows;
  }

  private addValues(traits: VisitorTraits, trigger: ClickTrigger, visits: number): void {
    for (let index = 0; index < CLICK_DIMENSIONS.length; index++) this.addValue(index, valueOf(traits, trigger, index), visits);
  }

  private addValue(index: number, value: string, visits: number): void {
    if (!this.values) {
      this.values = CLICK_DIMENSIONS.map(() => new Map<string, number>());
      this.bounded = CLICK_DIMENSIONS.map(() => 0);
    }
    const counts = this.values[index];
    const known = counts.get(value);
    if (known !== undefined) counts.set(value, known + visits);
    else if (!isBoundedValue(CLICK_DIMENSIONS[index], value)) counts.set(value, visits);
    else if (this.bounded[index] >= this.maxValues) counts.set(OTHER_VALUE, (counts.get(OTHER_VALUE) ?? 0) + visits);
    else {
      counts.set(value, visits);
      this.bounded[index]++;
    }
  }
}

/** A profile's value of the dimension at `index` in CLICK_DIMENSIONS. */
function valueOf(traits: VisitorTraits, trigger: ClickTrigger, index: number): string {
  switch (CLICK_DIMENSIONS[index]) {
    case 'referrer':
      return traits.referrer;
    case 'country':
      return traits.country;
    case 'device':
      return traits.device;
    case 'browser':
      return traits.browser;
    case 'os':
      return traits.os;
    case 'trigger':
      return trigger;
  }
}
