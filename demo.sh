#!/bin/sh
# Builds the inventory sample and runs its demo: several instances of it as separate processes, under concurrent
# orders, with and without the distributed lock. Needs only a JDK 17+; Maven comes with ./mvnw, Redis is embedded.
# With --cluster the instances share an embedded Redis Cluster of 3 masters instead of one embedded Redis.
set -eu
cd "$(dirname "$0")"
usage="Usage: ./demo.sh [--cluster]
  --cluster   run the demo on a local Redis Cluster of 3 masters that the demo starts itself
  -h, --help  show this help"
# Checked before the build, so that a typo fails at once; the demo itself checks its options again.
for option in "$@"; do
    case "$option" in
        --cluster) ;;
        -h | --help)
            echo "$usage"
            exit 0
            ;;
        *)
            echo "demo.sh: unknown option '$option'. Allowed: --cluster, -h/--help." >&2
            echo "$usage" >&2
            exit 2
            ;;
    esac
done
echo "Building the sample (first run downloads Maven and the dependencies)..."
./mvnw -q -B -pl sample-inventory-app -am package -Dmaven.test.skip=true
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -jar sample-inventory-app/target/sample-inventory-app.jar --demo "$@"
