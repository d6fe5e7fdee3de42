import { z } from 'zod';
import { isHostPort } from '../net/address-policy.js';
import { booleanFlag, commaList, portNumber, stripTrailingSlash } from './env-values.js';

/** The address policy for every outbound connection made for a caller (src/net). */
export const egressSection = z
  .object({
    /** Interface the egress proxy listens on; a remote browser needs one it can reach. */
    EGRESS_PROXY_HOST: z.string().min(1).default('127.0.0.1'),
    /** 0 takes a free port; a fixed one when EGRESS_PROXY_PUBLIC_URL (or a firewall rule) names it. */
    EGRESS_PROXY_PORT: portNumber.default(0),
    /** The proxy address given to browsers, when they reach it by another name (e.g. behind NAT). */
    EGRESS_PROXY_PUBLIC_URL: z.url({ protocol: /^http$/ }).optional(),
    ALLOW_PRIVATE_NETWORKS: booleanFlag.default(false),
    /** `host:port` entries exempt from the private-address block. */
    ALLOW_PRIVATE_HOSTS: commaList
      .refine((entries) => entries.every(isHostPort), 'ALLOW_PRIVATE_HOSTS must be a comma list of host:port')
      .default([]),
  })
  .refine((e) => !(e.EGRESS_PROXY_PUBLIC_URL && e.EGRESS_PROXY_PORT === 0), {
    path: ['EGRESS_PROXY_PORT'],
    message: 'set a fixed port when EGRESS_PROXY_PUBLIC_URL is set, so the advertised address stays valid',
  })
  .transform((e) => ({
    egress: {
      allowPrivateNetworks: e.ALLOW_PRIVATE_NETWORKS,
      allowPrivateHosts: e.ALLOW_PRIVATE_HOSTS,
      proxyHost: e.EGRESS_PROXY_HOST,
      proxyPort: e.EGRESS_PROXY_PORT,
      proxyPublicUrl: e.EGRESS_PROXY_PUBLIC_URL && stripTrailingSlash(e.EGRESS_PROXY_PUBLIC_URL),
    },
  }));
