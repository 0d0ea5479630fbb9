#!/usr/bin/env bash
# Checks with Mono's WCF that a sandbox's SOAP 1.1 and 1.2 faults are readable (a wrong API key).
# Needs mono-devel (apt-get install mono-devel); not part of npm test (Mono is a large install).
# npm run conformance runs the same client in the full conformance run (test/interop/run.sh).
# Usage: test/interop/wcf/run.sh <posting endpoint URL>
# The sandbox must use the namespace http://mp.example/ (npm run sandbox -- --namespace http://mp.example/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mcs -nologo -r:System.ServiceModel.dll -r:System.Runtime.Serialization.dll -r:System.Xml.dll -r:System.Web.Extensions.dll \
	"$here/FaultClient.cs" -out:"$out/client.exe"
for binding in soap11 soap12; do
	echo "$binding: $(mono "$out/client.exe" "$1" wrong-key "$binding")"
done
