#!/usr/bin/env bash
# Compares two builds of the service by server CPU per request (docs/performance.md "Comparing
# two builds"): both run side by side on the same database, driven by alternating wrk bursts.
#
#   scripts/ab-cpu.sh OLD_DIR [BURSTS] [PATH...]
#
# OLD_DIR: another checkout, built (`git worktree add /tmp/old <rev>`, link node_modules, `npm run
# build` there); the new build is this checkout's dist/. DATABASE_URL: a MySQL database both
# use, already seeded (`npm run bench -- --keep --databases cal_ab` leaves `cal_ab_ours`).
# PATHs are below the REST namespace (default: S1, S2, S6); `POST /events` creates events (a
# venue, two organizers, two categories and a tag by id, a unique title each, as an
# administrator's token made for the run): the creates stay, so compare writes on a database of
# their own. OLD_NODE / NEW_NODE: the runtimes (default: this checkout's pinned node). Needs wrk.
set -euo pipefail
cd "$(dirname "$0")/.."
old_dir=${1:?usage: scripts/ab-cpu.sh OLD_DIR [BURSTS] [PATH...]}
bursts=${2:-10}
shift $(($# >= 2 ? 2 : 1))
paths=("$@")
[ ${#paths[@]} -eq 0 ] && paths=(/events '/events?per_page=50' '/venues?per_page=10')
: "${DATABASE_URL:=mysql://root@127.0.0.1:3306/cal_ab_ours}"
pinned="$PWD/node_modules/.bin/node"
namespace=/wp-json/calendar/events/v1

start() { # dir node port -> pid
  (
    cd "$1" && MALLOC_ARENA_MAX=2 DATABASE_URL="$DATABASE_URL" HOST=127.0.0.1 PORT=$3 SITE_URL="http://127.0.0.1:$3" \
      NODE_ENV=production RESPONSE_CACHE=off WORKERS=1 LOG_LEVEL=info \
      exec "$2" --max-semi-space-size=32 --max-old-space-size=256 \
      --no-allocation-site-pretenuring dist/src/main.js >/dev/null 2>&1
  ) &
  echo $!
}
old_pid=$(start "$old_dir" "${OLD_NODE:-$pinned}" 4191)
new_pid=$(start "$PWD" "${NEW_NODE:-$pinned}" 4192)
work=$(mktemp -d)
trap 'kill -INT $old_pid $new_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for port in 4191 4192; do
  for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
done
if printf '%s\n' "${paths[@]}" | grep -q '^POST '; then
  # Writes: a token of the bootstrap administrator, and a create body of ids the database has.
  token="abcpu_$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')"
  DATABASE_URL="$DATABASE_URL" "$pinned" dist/src/cli/index.js token:add --login admin --token "$token" >/dev/null
  "$pinned" -e '
    const [base, token, file] = process.argv.slice(1);
    const ids = async (path, n) =>
      (await (await fetch(`${base}${path}?per_page=${n}`)).json())[path.slice(1)].map((x) => x.id);
    (async () => {
      const body = {
        description: "<p>Join us. Bring a friend and meet people from the neighbourhood.</p>",
        start_date: "2027-05-04 19:00:00", end_date: "2027-05-04 21:00:00", cost: "12",
        venue: (await ids("/venues", 1))[0], organizer: await ids("/organizers", 2),
        categories: await ids("/categories", 2), tags: await ids("/tags", 1),
      };
      const json = JSON.stringify(body).slice(1).replace(/[%]/g, "%%");
      require("fs").writeFileSync(file, `
local u = io.open("/dev/urandom", "rb"); local b = u:read(4); u:close()
local run = b:byte(1) * 16777216 + b:byte(2) * 65536 + b:byte(3) * 256 + b:byte(4)
local n = 0
request = function()
  n = n + 1
  local body = string.format([[{"title":"A/B create %d %d",${json}]], run, n)
  return wrk.format("POST", nil, {["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer ${token}"}, body)
end
`);
    })();
  ' "http://127.0.0.1:4191$namespace" "$token" "$work/post.lua"
fi
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
db_pid=$(pgrep -x mariadbd | head -1 || true)
hz=$(getconf CLK_TCK)
# One wrk run against a build: `load PORT PATH SECONDS` prints the requests it completed.
load() {
  local target=$2 script=()
  if [[ $target == 'POST '* ]]; then target=${target#POST } script=(-s "$work/post.lua"); fi
  local out
  out=$(wrk -t2 -c8 -d"$3" "${script[@]}" "http://127.0.0.1:$1$namespace$target")
  # A failing request costs another amount of CPU than the one compared: stop at once.
  if grep -q 'Non-2xx' <<<"$out"; then echo "$2 on :$1 answered errors: $out" >&2; exit 1; fi
  awk '/requests in/ {print $1}' <<<"$out"
}
for path in "${paths[@]}"; do
  declare -A cpu=([old]=0 [new]=0) requests=([old]=0 [new]=0) db=([old]=0 [new]=0)
  for port in 4191 4192; do load $port "$path" 2s >/dev/null; done
  for i in $(seq 1 "$bursts"); do
    # Alternate which build goes first, so that a drift of the machine hits both alike.
    order=(old new)
    [ $((i % 2)) = 1 ] && order=(new old)
    for which in "${order[@]}"; do
      pid=$old_pid port=4191
      [ "$which" = new ] && pid=$new_pid port=4192
      t0=$(ticks "$pid") d0=$([ -n "$db_pid" ] && ticks "$db_pid" || echo 0)
      n=$(load $port "$path" 1s)
      t1=$(ticks "$pid") d1=$([ -n "$db_pid" ] && ticks "$db_pid" || echo 0)
      cpu[$which]=$((cpu[$which] + t1 - t0))
      db[$which]=$((db[$which] + d1 - d0))
      requests[$which]=$((requests[$which] + n))
    done
  done
  node -e '
    const [path, hz, co, cn, qo, qn, dbo, dbn] = process.argv.slice(1);
    const us = (t, q) => Math.round((t / hz) * 1e6 / q);
    console.log(`${path}: old ${us(co, qo)} µs/request, new ${us(cn, qn)} µs/request, ` +
      `new/old ${((cn / qn) / (co / qo)).toFixed(3)}; MariaDB ${us(dbo, qo)} vs ${us(dbn, qn)} µs`);
  ' "$path" "$hz" "${cpu[old]}" "${cpu[new]}" "${requests[old]}" "${requests[new]}" "${db[old]}" "${db[new]}"
done
