#!/bin/sh
# Copy every node's envdoctor report into DIR as <node>.md, for `envdoctor fleet DIR`.
#
#   deploy/kubernetes/collect.sh DIR           # from the DaemonSet's pods (/var/lib/envdoctor/report.md)
#   deploy/kubernetes/collect.sh --jobs DIR    # from the logs of the envdoctor-<node> sweep Jobs
#
# NAMESPACE (default envdoctor) and KUBECTL (default kubectl) override. A node whose report
# cannot be read is named on stderr; the exit code is 1 when any was missing.
set -u
mode=daemonset
if [ "${1:-}" = "--jobs" ]; then mode=jobs; shift; fi
dir=${1:?usage: collect.sh [--jobs] DIR}
ns=${NAMESPACE:-envdoctor}
kubectl=${KUBECTL:-kubectl}
mkdir -p "$dir" || exit 2
missing=0
if [ "$mode" = jobs ]; then
  list=$("$kubectl" -n "$ns" get jobs -l app.kubernetes.io/name=envdoctor-sweep \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.spec.template.spec.nodeName}{"\n"}{end}') || exit 2
else
  list=$("$kubectl" -n "$ns" get pods -l app.kubernetes.io/name=envdoctor \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.spec.nodeName}{"\n"}{end}') || exit 2
fi
while read -r name node; do
  [ -n "$name" ] || continue
  if [ "$mode" = jobs ]; then
    "$kubectl" -n "$ns" logs "job/$name" > "$dir/$node.md.part" 2>/dev/null
  else
    "$kubectl" -n "$ns" exec "$name" -- cat /var/lib/envdoctor/report.md > "$dir/$node.md.part" 2>/dev/null
  fi
  if [ $? -eq 0 ] && [ -s "$dir/$node.md.part" ]; then
    mv "$dir/$node.md.part" "$dir/$node.md"
  else
    rm -f "$dir/$node.md.part"
    echo "collect: no report from node $node ($name)" >&2
    missing=1
  fi
done <<LIST
$list
LIST
echo "collect: reports in $dir; next: envdoctor fleet $dir" >&2
exit "$missing"
