/**
 * The failure scenarios' control routes (docs/scenarios.md), to turn scenarios on and off during a test
 * run as WireMock's admin API does: list what is on and what the library offers, turn one on by library
 * name or by its whole definition, turn one or all off.
 */
import type { ScenarioEngine } from '../scenarios/engine';
import { readScenario, ScenarioFormatError, type Scenario } from '../scenarios/format';
import { libraryScenario, SCENARIO_LIBRARY } from '../scenarios/library';
import { ControlError, type ControlRouter } from './router';

/** The scenario a POST body names (`{"name": "service-down"}`) or defines (a whole scenario with its rules). */
export function scenarioOfBody(body: string): Scenario {
	let data: unknown;
	try {
		data = JSON.parse(body);
	} catch {
		throw new ControlError(400, 'The body must be JSON: {"name": "<library scenario>"} or a whole scenario.');
	}
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		throw new ControlError(
			400,
			'The body must be a JSON object: {"name": "<library scenario>"} or a whole scenario.',
		);
	}
	const fields = data as Record<string, unknown>;
	if (fields.rules === undefined) {
		const found = typeof fields.name === 'string' ? libraryScenario(fields.name) : undefined;
		if (!found) {
			throw new ControlError(
				404,
				`No library scenario ${JSON.stringify(fields.name)}; the library has ${SCENARIO_LIBRARY.map((s) => s.name).join(', ')}. Send a whole scenario (with rules) to use your own.`,
			);
		}
		return found;
	}
	try {
		return readScenario(data, 'the request body');
	} catch (error) {
		if (error instanceof ScenarioFormatError) throw new ControlError(400, error.message);
		throw error;
	}
}

/** Registers `/__admin/scenarios` (GET, POST, DELETE) and `/__admin/scenarios/:name` (DELETE). */
export function registerScenarioRoutes(router: ControlRouter, scenarios: ScenarioEngine): void {
	const state = () => ({
		active: scenarios.list(),
		library: SCENARIO_LIBRARY.map(({ name, title, description, expectation }) => ({
			name,
			title,
			description,
			expectation,
		})),
	});
	router
		.add('GET', '/__admin/scenarios', () => ({ body: state() }))
		.add('POST', '/__admin/scenarios', ({ body }) => {
			scenarios.activate(scenarioOfBody(body));
			return { body: state() };
		})
		.add('DELETE', '/__admin/scenarios', () => {
			scenarios.deactivate();
			return { body: state() };
		})
		.add('DELETE', '/__admin/scenarios/:name', ({ params }) => {
			if (!scenarios.deactivate(params.name)) throw new ControlError(404, `Scenario ${params.name} is not on.`);
			return { body: state() };
		});
}
