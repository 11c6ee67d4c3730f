-- Wines with their label images. readfile() paths are relative to this file's folder, so `cellar setup`
-- works from any directory. An upsert, so that `cellar seed FILE --force` can run it again.
INSERT INTO wine (id, name, vintage, volume_cl, rating, label, winery_id) VALUES
  (1, 'Monte Bello', 2016, 75, 5, readfile('labels/ridge_monte_bello.png'), 1),
  (2, 'Geyserville Zinfandel', 2019, 75, 4, readfile('labels/ridge_zinfandel.png'), 1),
  (3, 'Château Musar Rouge', 2015, 75, 4, readfile('labels/chateau_musar.png'), 2),
  (4, 'Bannockburn Pinot Noir', 2020, 75, 4, readfile('labels/felton_road_pinot.png'), 3),
  (5, 'Wehlener Sonnenuhr Riesling Kabinett', 2021, 75, 5, readfile('labels/dr_loosen_riesling.png'), 4),
  (6, 'Malbec Argentino', 2019, 150, 3, readfile('labels/catena_malbec.png'), 5)
ON CONFLICT (id) DO UPDATE SET
  name = excluded.name, vintage = excluded.vintage, volume_cl = excluded.volume_cl, rating = excluded.rating,
  label = excluded.label, winery_id = excluded.winery_id;
