import { LinkClicked } from '../model/link-clicked.event';

/** Where clicks go (bridged to statistics in the app); must not wait on anything. */
export abstract class ClickRecorder {
  abstract record(click: LinkClicked): void;
}
