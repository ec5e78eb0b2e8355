"""The match store's schema: each version's statements, applied in order on first start (versioned
migrations, ``Store.migrate``), the same on SQLite and PostgreSQL."""

from __future__ import annotations

#: Each schema version's statements, applied in order on first start (versioned migrations).
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE matches (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seats INTEGER NOT NULL,
            seed BIGINT NOT NULL,
            status TEXT NOT NULL,
            public INTEGER NOT NULL,
            invite_hash TEXT NOT NULL,
            clock TEXT,
            clock_state TEXT,
            version INTEGER NOT NULL,
            epoch INTEGER,
            epoch_started DOUBLE PRECISION,
            due DOUBLE PRECISION,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            rematch TEXT,
            rematch_of TEXT,
            lexicon TEXT
        )""",
        """CREATE TABLE seats (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            name TEXT,
            token_hash TEXT,
            bot TEXT,
            joined DOUBLE PRECISION,
            left_at DOUBLE PRECISION,
            seen DOUBLE PRECISION,
            PRIMARY KEY (match_id, seat)
        )""",
        """CREATE TABLE moves (
            match_id TEXT NOT NULL REFERENCES matches(id),
            version INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, version)
        )""",
        """CREATE TABLE snapshots (
            match_id TEXT NOT NULL REFERENCES matches(id),
            version INTEGER NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (match_id, version)
        )""",
        "CREATE INDEX matches_listing ON matches (status, public, created)",
        "CREATE INDEX matches_due ON matches (due)",
    ],
    [
        # House rules (issue 17): a table's overlay on the lexicon, which a match or a challenge names by
        # id. A row never changes once made (its id is a digest of its content).
        """CREATE TABLE house_rules (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            allow_words TEXT NOT NULL,
            deny_words TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL
        )""",
        "ALTER TABLE matches ADD COLUMN house_rules TEXT",
    ],
    [
        # A match's revision moves with every write to its row or its seats but a seat's ``seen``
        # (the version moves with moves only): a server's copy of a match is the stored one when
        # their revisions agree, which lets a move be committed on the copy without a read first.
        "ALTER TABLE matches ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
    ],
    [
        # Quotas (issue 24): who created a match (a digest of the client's address, never the address),
        # so that the matches waiting for players are counted per client; and each server process's
        # last sign of life, so that a restart knows how long no server ran the clocks.
        "ALTER TABLE matches ADD COLUMN creator TEXT",
        "CREATE INDEX matches_waiting ON matches (status, creator)",
        """CREATE TABLE servers (
            id TEXT PRIMARY KEY,
            alive DOUBLE PRECISION NOT NULL
        )""",
    ],
    [
        # Turn alerts (issue 27, Web Push; matches/push.py): each seat's browsers' push subscriptions. The
        # seat's token digest at subscription time rides along, so that a subscription made by a seat's
        # person never reaches whoever holds the seat next (a seat freed before the start, or left).
        """CREATE TABLE push_subscriptions (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            endpoint TEXT NOT NULL,
            p256dh TEXT NOT NULL,
            auth TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (match_id, seat, endpoint)
        )""",
        # The server's VAPID key with PostgreSQL (several servers on several machines must sign with the
        # same key: a browser's subscription is bound to it). With SQLite it is a file in the data folder.
        """CREATE TABLE push_keys (
            id TEXT PRIMARY KEY,
            private_pem TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL
        )""",
    ],
    [
        # Seats that travel (issue 26): a seated player's one-time code that moves the seat to another
        # device (``Lobby.seat_link``). Only the code's digest is kept, with the digest of the token that
        # asked for it (the seat moves only while that token holds it), when it expires and when it was used.
        """CREATE TABLE seat_codes (
            code_hash TEXT PRIMARY KEY,
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            token_hash TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL,
            used DOUBLE PRECISION
        )""",
        "CREATE INDEX seat_codes_by_seat ON seat_codes (match_id, seat)",
    ],
    [
        # Fair PDQ online (issue 26): the lag a seat's claims are allowed (ms), as the server holding its
        # live socket measured it (``matches/lag.py``), so that a claim sent to another server process is
        # allowed the same. Written with ``seen`` when it moves by a step, never per move or ping.
        "ALTER TABLE seats ADD COLUMN lag_ms INTEGER",
    ],
    [
        # A table (matches/tables.py): a group's home, reached by its link, with its players (a name and a key
        # kept on their devices, only its digest here), the one-time codes that copy a player's key to another
        # device (the key sealed with the code, which is kept only as a digest), the matches started from it
        # (``matches.table_id``, and which player each seat is for: a seat is held for its player by a
        # placeholder digest no token has, until the player's key claims it), and its history and league:
        # each finished match's result in the order recorded (``seq``), and the standings they lead to. The
        # rows of matches are referred to by id only: the matches' own upkeep (expiry) needs no word of tables.
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            creator TEXT,
            revision INTEGER NOT NULL DEFAULT 0,
            results INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX tables_by_creator ON tables (creator)",
        """CREATE TABLE table_players (
            table_id TEXT NOT NULL REFERENCES tables(id),
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            key_hash TEXT NOT NULL,
            joined DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, player),
            UNIQUE (table_id, name_key)
        )""",
        """CREATE TABLE player_codes (
            code_hash TEXT PRIMARY KEY,
            table_id TEXT NOT NULL REFERENCES tables(id),
            player TEXT NOT NULL,
            sealed TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL,
            used DOUBLE PRECISION
        )""",
        "ALTER TABLE matches ADD COLUMN table_id TEXT",
        "CREATE INDEX matches_by_table ON matches (table_id, created)",
        """CREATE TABLE table_seats (
            match_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            table_id TEXT NOT NULL REFERENCES tables(id),
            player TEXT NOT NULL,
            placeholder TEXT NOT NULL,
            PRIMARY KEY (match_id, seat)
        )""",
        "CREATE INDEX table_seats_by_player ON table_seats (table_id, player)",
        """CREATE TABLE table_results (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            match_id TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            ended DOUBLE PRECISION NOT NULL,
            result TEXT NOT NULL,
            PRIMARY KEY (table_id, seq)
        )""",
        """CREATE TABLE table_standings (
            table_id TEXT NOT NULL REFERENCES tables(id),
            game TEXT NOT NULL,
            player TEXT NOT NULL,
            standing TEXT NOT NULL,
            PRIMARY KEY (table_id, game, player)
        )""",
    ],
    [
        # Seats that are gone (``matches/gone.py``): the table's choice for a seat whose player resigned or
        # ran out of a clock of days (``when_gone``; NULL: the default, a bot), how a match ended when its
        # game did not (``ending``, JSON), when a person last moved in it (``active``: a match its table
        # walked away from is ended), and when a seat's player resigned.
        "ALTER TABLE matches ADD COLUMN when_gone TEXT",
        "ALTER TABLE matches ADD COLUMN ending TEXT",
        "ALTER TABLE matches ADD COLUMN active DOUBLE PRECISION",
        "UPDATE matches SET active = updated WHERE status = 'playing'",
        "ALTER TABLE seats ADD COLUMN resigned DOUBLE PRECISION",
    ],
    [
        # Ending a game by agreement (``matches/departures.py``): when a seat's player asked to end the game
        # (NULL: has not, or took it back); it ends when every person still playing has asked.
        "ALTER TABLE seats ADD COLUMN end_asked DOUBLE PRECISION",
    ],
]
SCHEMA_VERSION = len(MIGRATIONS)
NOTIFY_CHANNEL = "tablejudge_moves"
