#!/usr/bin/env bash
# Set-up of `npm run bench`: what the peers of the server benchmark need beyond npm install.
# WireMock's standalone jar comes with the npm package `wiremock` (a devDependency); it runs on
# Java, which comes from Debian (default-jre-headless). Nothing is downloaded at run time.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v java >/dev/null 2>&1; then
	if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
		echo "bench/setup.sh: installing Java (default-jre-headless) for WireMock" >&2
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null
	else
		echo "bench/setup.sh: no Java; WireMock will be reported as not measured (install default-jre-headless)" >&2
	fi
fi
if ! ls node_modules/wiremock/build/wiremock-standalone-*.jar >/dev/null 2>&1; then
	echo "bench/setup.sh: node_modules/wiremock is missing; run npm install" >&2
fi
