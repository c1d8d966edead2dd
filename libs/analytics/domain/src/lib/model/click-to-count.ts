import type { Click } from '@lnk/shared/kernel';

export type { ClickTrigger } from '@lnk/shared/kernel';

/** A click as statistics count it: the kernel's Click, the very object links publish (no copy on the way). */
export type ClickToCount = Click;
