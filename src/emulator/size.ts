/** Sizes of the generated sandbox account. */

/** A named size or explicit counts. */
export type SandboxSize = 'small' | 'default' | 'large' | { adverts: number; applications: number };

/** Named sizes: adverts and applications generated. */
export const SANDBOX_SIZES = {
	small: { adverts: 30, applications: 300 },
	default: { adverts: 200, applications: 5_000 },
	large: { adverts: 50_000, applications: 1_000_000 },
} as const;

/** Counts for a size; undefined means the seed's defaults. */
export function resolveSize(size: SandboxSize | undefined): { adverts: number; applications: number } | undefined {
	if (size === undefined) return undefined;
	if (typeof size === 'string') return { ...SANDBOX_SIZES[size] };
	return size;
}

/** Parses `small`, `default`, `large`, a number of applications (adverts = applications / 20) or `<adverts>x<applications>`. */
export function parseSize(text: string): SandboxSize {
	const lower = text.trim().toLowerCase();
	if (lower === 'small' || lower === 'default' || lower === 'large') return lower;
	const pair = /^(\d{1,8})x(\d{1,8})$/.exec(lower);
	if (pair) return { adverts: Math.max(Number(pair[1]), 1), applications: Number(pair[2]) };
	if (/^\d{1,8}$/.test(lower)) {
		return { adverts: Math.max(Math.ceil(Number(lower) / 20), 1), applications: Number(lower) };
	}
	throw new Error('--size must be small, default, large, a number of applications or <adverts>x<applications>.');
}
