#!/bin/sh
# Builds the inventory sample and runs its demo: several instances of it as separate processes, under concurrent
# orders, with and without the distributed lock. Needs only a JDK 17+; Maven comes with ./mvnw, Redis is embedded.
set -eu
cd "$(dirname "$0")"
echo "Building the sample (first run downloads Maven and the dependencies)..."
./mvnw -q -B -pl sample-inventory-app -am package -Dmaven.test.skip=true
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -jar sample-inventory-app/target/sample-inventory-app.jar --demo
