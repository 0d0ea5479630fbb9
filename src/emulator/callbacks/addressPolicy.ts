/**
 * Where application callbacks may not go: link-local addresses (169.254.0.0/16, fe80::/10), where
 * cloud providers serve instance metadata and credentials, and the metadata services' own names and
 * addresses. A callback URL is written by whoever calls AddAdvert, so without this the sandbox could be
 * used to read a cloud machine's credentials (SSRF). Names are checked as written and again after DNS
 * resolution, on the address actually connected to, so a name that resolves to such an address (or is
 * rebound to one) is refused too. Loopback and private networks stay allowed: integrators' receivers
 * run there. The option callbackAllowLinkLocal (CLI --allow-link-local-callbacks) lifts the rule.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/** Host names of cloud metadata services (GCP, AWS, Azure, Alibaba, OpenStack and others use these). */
const METADATA_NAMES = new Set([
	'metadata',
	'metadata.google.internal',
	'metadata.goog',
	'instance-data',
	'instance-data.ec2.internal',
	'metadata.azure.internal',
	'metadata.packet.net',
]);

/** Metadata addresses outside the link-local ranges: AWS over IPv6, Alibaba Cloud. */
const METADATA_ADDRESSES = new Set(['fd00:ec2::254', '100.100.100.200']);

/** A callback target refused by the policy; never retried. */
export class ForbiddenCallbackTargetError extends Error {
	override readonly name = 'ForbiddenCallbackTargetError';
}

function isLinkLocalV4(address: string): boolean {
	return /^169\.254\.\d{1,3}\.\d{1,3}$/.test(address);
}

/** True for link-local and metadata addresses, IPv4-mapped IPv6 forms included. */
export function isForbiddenAddress(address: string): boolean {
	const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
	if (METADATA_ADDRESSES.has(ip)) return true;
	const version = isIP(ip);
	if (version === 4) return isLinkLocalV4(ip);
	if (version !== 6) return false;
	if (ip.startsWith('::ffff:')) {
		// IPv4-mapped (::ffff:169.254.169.254, or as URL and DNS write it, ::ffff:a9fe:a9fe).
		const rest = ip.slice('::ffff:'.length);
		if (isIP(rest) === 4) return isForbiddenAddress(rest);
		const [high, low] = rest.split(':').map((part) => parseInt(part, 16));
		return isForbiddenAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
	}
	const first = parseInt(ip.split(':')[0] || '0', 16);
	// fe80::/10: the first ten bits are 1111 1110 10.
	return (first & 0xffc0) === 0xfe80;
}

/** Why a URL may not be called back (by its name or literal address), or undefined. */
export function forbiddenTarget(url: URL): string | undefined {
	const host = url.hostname
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.toLowerCase();
	if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata service`;
	if (isForbiddenAddress(host)) return `${host} is a link-local or metadata address`;
	return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

type Resolve = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A dns.lookup for http.request that fails when the name resolves to a forbidden address, so the
 * check applies to the address actually connected to. `resolve` is dns.lookup (tests pass their own).
 */
export function refusingLookup(resolve: Resolve = dnsLookup as unknown as Resolve): Resolve {
	return (hostname, options, callback) =>
		resolve(hostname, { ...options }, (error, address, family) => {
			if (error) return callback(error, address, family);
			const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
			const refused = addresses.find(isForbiddenAddress);
			if (refused !== undefined) {
				return callback(
					new ForbiddenCallbackTargetError(
						`${hostname} resolves to ${refused}, a link-local or metadata address`,
					),
					address,
					family,
				);
			}
			callback(null, address, family);
		});
}

export const guardedLookup = refusingLookup();
