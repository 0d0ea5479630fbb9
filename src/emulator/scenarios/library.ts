/**
 * The library of ready scenarios (./library/*.json, bundled with the sandbox) and the one way to load
 * a scenario by library name or file path, used by the CLI, the control endpoint and the extension.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseScenario, readScenario, ScenarioFormatError, type Scenario } from './format';
import boardRejectsDeliveries from './library/board-rejects-deliveries.json';
import burstOfApplications from './library/burst-of-applications.json';
import expiredLoginLink from './library/expired-login-link.json';
import flakyNetwork from './library/flaky-network.json';
import quotaExhaustedOnOneBoard from './library/quota-exhausted-on-one-board.json';
import serviceDown from './library/service-down.json';
import slowService from './library/slow-service.json';

/** The shipped scenarios, in the order an integrator meets them. */
export const SCENARIO_LIBRARY: readonly Scenario[] = [
	slowService,
	serviceDown,
	flakyNetwork,
	quotaExhaustedOnOneBoard,
	boardRejectsDeliveries,
	burstOfApplications,
	expiredLoginLink,
].map((data) => readScenario(data, `library:${(data as { name: string }).name}`));

/** Largest scenario file read (a scenario is a few rules). */
const MAX_FILE_BYTES = 1024 * 1024;

export function libraryScenario(name: string): Scenario | undefined {
	return SCENARIO_LIBRARY.find((scenario) => scenario.name === name);
}

/** A library scenario by name, else a JSON file by path; errors name the file and what is wrong. */
export function loadScenario(nameOrPath: string): Scenario {
	const shipped = libraryScenario(nameOrPath);
	if (shipped) return shipped;
	let size: number;
	try {
		size = statSync(nameOrPath).size;
	} catch {
		throw new ScenarioFormatError(
			`${nameOrPath}: no such scenario file, and no library scenario of that name (library: ${SCENARIO_LIBRARY.map((s) => s.name).join(', ')}).`,
		);
	}
	if (size > MAX_FILE_BYTES) {
		throw new ScenarioFormatError(`${nameOrPath}: larger than 1 MiB; a scenario is a few rules.`);
	}
	return parseScenario(readFileSync(nameOrPath, 'utf8'), nameOrPath);
}
