#!/usr/bin/env python3
"""Counts the statements PostgreSQL runs for each move (issue 18: a move's
write in one round trip). Starts a throwaway PostgreSQL that logs every
statement, one `legion serve` on it, plays MOVES moves of a local game
over HTTP, and counts the statements logged while they were played.

    python3 tools/bench/pg_round_trips.py target/release/legion [MOVES]

Needs Debian's postgresql package (scripts/with-postgres.sh installs it).
"""
import glob, json, os, shutil, subprocess, sys, tempfile, time, urllib.request

legion = os.path.abspath(sys.argv[1])
moves = int(sys.argv[2]) if len(sys.argv) > 2 else 100
pgbin = sorted(glob.glob('/usr/lib/postgresql/*/bin'))[-1]
tmp = tempfile.mkdtemp(prefix='legion-rt-')
os.chmod(tmp, 0o777)
as_pg = ['su', 'postgres', '-s', '/bin/sh', '-c'] if os.geteuid() == 0 else ['sh', '-c']
port = 23000 + os.getpid() % 1000
log = os.path.join(tmp, 'pg.log')
subprocess.run(as_pg + [f"'{pgbin}/initdb' -D '{tmp}/data' -A trust -U postgres >/dev/null"], check=True)
subprocess.run(as_pg + [f"'{pgbin}/pg_ctl' -D '{tmp}/data' -l '{log}' -w -o \"-p {port} -k '{tmp}' "
                        f"-c listen_addresses=127.0.0.1 -c log_statement=all -c log_min_duration_statement=-1\" start >/dev/null"], check=True)
server = None
try:
    subprocess.run(['psql', '-h', '127.0.0.1', '-p', str(port), '-U', 'postgres', '-q', '-c', 'CREATE DATABASE rt'], check=True)
    server = subprocess.Popen([legion, 'serve', '--port', '0', '--db', f'postgres://postgres@127.0.0.1:{port}/rt',
                               '--games-per-minute', '0'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    http = line.split('http://')[1].split('/')[0]

    def call(method, path, body=None, token=None):
        req = urllib.request.Request(f'http://{http}{path}', method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={'Content-Type': 'application/json',
                                              **({'Authorization': f'Bearer {token}'} if token else {})})
        with urllib.request.urlopen(req) as r:
            return json.load(r)

    def new_game():
        created = call('POST', '/api/games', {'mode': 'local'})
        return created['id'], created['token'], created['state']
    time.sleep(0.5)
    # The sweeper's rounds (due deadlines, unclaimed engine jobs, four a
    # second) are not the moves' statements.
    sweeper = ('deadline_ms <=', 'lease_until_ms <')
    def statements():
        with open(log, errors='replace') as f:
            return sum(1 for l in f
                       if ('LOG:  statement:' in l or 'LOG:  execute' in l)
                       and not any(w in l for w in sweeper))
    games = [new_game() for _ in range(moves // 10 + 1)]
    time.sleep(0.5)
    before = statements()
    played = 0
    # Ten moves in each game (the first legal move each time).
    for gid, token, state in games:
        for ply in range(10):
            if played == moves or state['status'] != 'active' or not state['legal']:
                break
            state = call('POST', f'/api/games/{gid}/moves',
                         {'move': state['legal'][0]['canonical'], 'ply': ply}, token)
            played += 1
    time.sleep(0.5)
    after = statements()
    print(f'{legion}: {played} moves, {after - before} statements, {(after - before) / played:.2f} a move')
finally:
    if server:
        server.kill()
    subprocess.run(as_pg + [f"'{pgbin}/pg_ctl' -D '{tmp}/data' -m fast stop >/dev/null"])
    shutil.rmtree(tmp, ignore_errors=True)
