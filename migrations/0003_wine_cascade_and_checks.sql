-- Deleting a winery now deletes its wines, and a wine needs a name and a sensible vintage.
--
-- ALTER TABLE cannot change a foreign key or add a CHECK constraint, so the table is rebuilt with the
-- procedure of https://sqlite.org/lang_altertable.html#otheralter. cellar does steps 1, 2, 11 and 12
-- itself: foreign_keys is off outside this migration's transaction, and PRAGMA foreign_key_check runs
-- before the commit (step 10), failing the migration if a row lost its winery.

-- migrate:up
CREATE TABLE new_wine (
  id        INTEGER PRIMARY KEY,
  name      TEXT    NOT NULL CHECK (name <> ''),
  vintage   INTEGER CHECK (vintage BETWEEN 1800 AND 2100),
  volume_cl INTEGER NOT NULL DEFAULT 75 CHECK (volume_cl > 0),
  rating    INTEGER CHECK (rating BETWEEN 1 AND 5),
  label     BLOB,
  winery_id INTEGER NOT NULL REFERENCES wineries (id) ON DELETE CASCADE
);

INSERT INTO new_wine (id, name, vintage, volume_cl, rating, label, winery_id)
  SELECT id, name, vintage, volume_cl, rating, label, winery_id FROM wine;

DROP TABLE wine;

ALTER TABLE new_wine RENAME TO wine;

CREATE INDEX wine_by_winery ON wine (winery_id);

-- migrate:down
CREATE TABLE old_wine (
  id        INTEGER PRIMARY KEY,
  name      TEXT    NOT NULL,
  vintage   INTEGER,
  volume_cl INTEGER NOT NULL DEFAULT 75,
  rating    INTEGER CHECK (rating BETWEEN 1 AND 5),
  label     BLOB,
  winery_id INTEGER NOT NULL REFERENCES wineries (id)
);

INSERT INTO old_wine (id, name, vintage, volume_cl, rating, label, winery_id)
  SELECT id, name, vintage, volume_cl, rating, label, winery_id FROM wine;

DROP TABLE wine;

ALTER TABLE old_wine RENAME TO wine;

CREATE INDEX wine_by_winery ON wine (winery_id);
