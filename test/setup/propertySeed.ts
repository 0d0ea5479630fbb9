/**
 * One seed for every property test (fast-check) of a run, so a run fails only because of the code under
 * test and a failure reproduces. The seed is fixed by default; FC_SEED=<n> takes another, FC_SEED=random
 * draws one (`npm run test:explore`: new inputs, printed so they can be replayed). fast-check also names
 * the seed and path of any counterexample. Loaded by .mocharc.json before every test file.
 */
import fc from 'fast-check';

/** The seed of every run that does not ask for another. */
export const DEFAULT_PROPERTY_SEED = 20_261_127;

function chosenSeed(text: string | undefined): number {
	if (text === undefined || text === '') return DEFAULT_PROPERTY_SEED;
	if (text === 'random') return Math.floor(Math.random() * 2 ** 31);
	const seed = Number(text);
	if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be a whole number or "random", got "${text}".`);
	return seed;
}

const seed = chosenSeed(process.env.FC_SEED);
fc.configureGlobal({ seed });
if (seed !== DEFAULT_PROPERTY_SEED) process.stdout.write(`property tests: seed ${seed} (FC_SEED=${seed} replays it)\n`);
