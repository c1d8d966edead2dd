// What the throttles' adapters count a client address under (an IPv6 address as its /64): the fakes of
// their ports (LoginThrottle, PasswordAttempts) key addresses alike, so a spec sees what production counts.
export { clientAddressKey } from '@lnk/shared/client-address';
