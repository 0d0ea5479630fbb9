<?php
// PHP SoapClient (php-soap) client of the conformance run: calls every operation of the plan in one SOAP
// binding and prints one JSON line per call (see test/interop/conformance.mjs).
// Usage: php client.php <plan.json> soap11|soap12
[, $planFile, $binding] = $argv;
$plan = json_decode(file_get_contents($planFile), true);
$clients = [];
$entries = $plan['calls'];
$entries[] = array_merge($plan['mistake'], ['label' => 'mistake']);
foreach ($entries as $entry) {
	$label = $entry['label'] ?? $entry['op'];
	try {
		$service = $entry['service'];
		$clients[$service] ??= new SoapClient($plan['wsdl'][$service], [
			'soap_version' => $binding === 'soap12' ? SOAP_1_2 : SOAP_1_1,
			'exceptions' => true,
			'cache_wsdl' => WSDL_CACHE_NONE,
		]);
		$params = [];
		foreach ($entry['params'] as $name => $value) {
			$params[$name] = is_array($value) ? ['string' => $value] : $value;
		}
		$result = $clients[$service]->__soapCall($entry['op'], [$params]);
		$line = ['op' => $label, 'ok' => true, 'result' => $result];
	} catch (SoapFault $fault) {
		$line = ['op' => $label, 'ok' => false, 'error' => "SoapFault {$fault->faultcode}: {$fault->getMessage()}"];
	} catch (Throwable $error) {
		$line = ['op' => $label, 'ok' => false, 'error' => get_class($error) . ': ' . $error->getMessage()];
	}
	echo json_encode($line, JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}
