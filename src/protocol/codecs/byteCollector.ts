/**
 * Bytes that arrive in pieces (a request or response body), copied into one buffer as they come, so
 * the memory held follows the bytes received and never the number of pieces: a body sent one byte at
 * a time would otherwise keep an object of a few hundred bytes for every byte. The buffer doubles as
 * it fills, up to the cap, so it holds at most about twice the bytes received. Pure.
 */

/** Room made for a body whose length is not known in advance. */
const INITIAL_CAPACITY = 16 * 1024;

export class ByteCollector {
	/** Bytes received so far. */
	length = 0;
	/** Pieces received so far. */
	pieces = 0;
	private buffer: Uint8Array;

	/**
	 * `cap`: the most bytes ever kept. `expectedLength`: a declared length to make room for at once
	 * (capped); 0 when unknown.
	 */
	constructor(
		private readonly cap: number,
		expectedLength = 0,
	) {
		this.buffer = new Uint8Array(Math.min(cap, expectedLength > 0 ? expectedLength : INITIAL_CAPACITY));
	}

	/** Room for this many more bytes before the cap. */
	get room(): number {
		return this.cap - this.length;
	}

	/** Copies a piece in; false (and nothing kept) when it would pass the cap. */
	add(piece: Uint8Array): boolean {
		this.pieces++;
		const needed = this.length + piece.byteLength;
		if (needed > this.cap) return false;
		if (needed > this.buffer.byteLength) {
			const grown = new Uint8Array(Math.min(this.cap, Math.max(needed, this.buffer.byteLength * 2)));
			grown.set(this.buffer.subarray(0, this.length));
			this.buffer = grown;
		}
		this.buffer.set(piece, this.length);
		this.length = needed;
		return true;
	}

	/** The bytes received, in memory of exactly their length that holds nothing else. */
	bytes(): Uint8Array {
		return this.length === this.buffer.byteLength ? this.buffer : this.buffer.slice(0, this.length);
	}
}
