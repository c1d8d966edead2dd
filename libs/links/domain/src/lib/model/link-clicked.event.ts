import type { Click } from '@lnk/shared/kernel';

export type { ClickTrigger } from '@lnk/shared/kernel';

/** The event links publish (ClickRecorder) for each answered redirect or password attempt: the kernel's Click. */
export type LinkClicked = Click;

/**
 * The query parameter the QR code's short URL carries, so a visit through it counts as a `qr` one. The
 * redirect removes it before passing the query on to the destination.
 */
export const QR_MARKER_PARAM = 'lnk_qr';
