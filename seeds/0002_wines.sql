-- Wines with their label images. readfile() paths are relative to the working directory, so run
-- `cellar setup` (or `cellar seed`) from the repository root.
INSERT INTO wine (name, vintage, volume_cl, rating, label, winery_id) VALUES
  ('Monte Bello', 2016, 75, 5, readfile('seeds/labels/ridge_monte_bello.png'), 1),
  ('Geyserville Zinfandel', 2019, 75, 4, readfile('seeds/labels/ridge_zinfandel.png'), 1),
  ('Château Musar Rouge', 2015, 75, 4, readfile('seeds/labels/chateau_musar.png'), 2),
  ('Bannockburn Pinot Noir', 2020, 75, 4, readfile('seeds/labels/felton_road_pinot.png'), 3),
  ('Wehlener Sonnenuhr Riesling Kabinett', 2021, 75, 5, readfile('seeds/labels/dr_loosen_riesling.png'), 4),
  ('Malbec Argentino', 2019, 150, 3, readfile('seeds/labels/catena_malbec.png'), 5);
