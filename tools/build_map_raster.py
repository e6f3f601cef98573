"""Build a board's land-id raster and geometry from a land/sea mask.

Run by hand when the map data changes (build time only)::

    pip install 'annals[tools]'          # global-land-mask (MIT), build time only
    PYTHONPATH=. python tools/build_map_raster.py                      # the classic board
    PYTHONPATH=. python tools/build_map_raster.py \
        --map data/history/epochs5/map.yaml --out data/history/epochs5/board

    PYTHONPATH=. python tools/build_map_raster.py --map data/seven_ages/map.yaml [--sync]

7 Ages (the ``seven_ages`` profile) partitions the seas as well as the land,
writes ``areas.png`` (16-bit ids) and a geometry with the raster's contacts,
coasts and arrows, and reports where they differ from the map's borders;
``--sync`` rewrites the map's borders and coasts from the raster.

``--map`` defaults to the classic map and ``--out`` to the ``board`` folder
beside the map. The hand-tuned flood settings (extra seeds, speeds, corners)
belong to one map each: ``--profile`` picks them (``classic`` or ``epochs5``),
by default the name of the map's folder. The classic build is unchanged.

Source of the coastlines: the ``global-land-mask`` package (MIT), itself built
from the GLOBE 1-km elevation data set (NOAA, public domain). Only oceans are
water in that mask; the Caspian and the Great Lakes are land, which matches the
game (the Caspian is no water of the game).

Projection: an equirectangular map whose scale varies smoothly with longitude
and latitude (x and y are integrals of piecewise-linear weights), cropped to
lon -128..162, lat -46..75. Europe, the Middle East and China, where lands are
small and many, are drawn larger; the oceans, Canada, Siberia and the south are
drawn smaller. Coastlines keep their real shapes, only their scale changes.

Lands: every land pixel is given to the land whose seeds reach it first in a
multi-source flood (Dijkstra) that runs through land pixels only, so a land
never takes a slice of another landmass (Britain gets nothing of France). Each
land floods from its anchor (snapped to the nearest land pixel when the anchor
falls on water) and any extra seeds below, at its own speed. Islands without a
seed go to the nearest land if they are small and close, otherwise they stay
off the board (OFF_BOARD id: Greenland, Iceland, New Zealand, ...).

Output (committed, read at run time with Pillow and json only):
    <out>/lands.png      mode "L": 0 sea, 1..N lands in map order, 255 off board
    <out>/geometry.json  ids, label positions, piece slots, ...
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.history.worldmap import load_map

ROOT = Path(__file__).resolve().parents[1]
CLASSIC_MAP = ROOT / "data" / "history" / "classic" / "map.yaml"
WIDTH = 1600
OFF_BOARD = 255
LON0, LON1 = -128.0, 162.0
LAT0, LAT1 = -46.0, 75.0
SUPERSAMPLE = 3

# Horizontal scale (relative) at these longitudes; linear in between.
LON_KNOTS = [-128, -100, -75, -55, -35, -18, -8, 10, 30, 45, 60, 75, 90, 105, 120, 135, 150, 162]
LON_WEIGHTS = [
    0.42,
    0.45,
    0.5,
    0.4,
    0.28,
    0.45,
    1.7,
    2.3,
    2.2,
    1.8,
    1.3,
    1.25,
    1.2,
    1.25,
    1.2,
    0.9,
    0.6,
    0.45,
]
# Vertical scale (relative) at these latitudes.
LAT_KNOTS = [-46, -30, -15, 0, 15, 28, 36, 45, 55, 62, 68, 75]
LAT_WEIGHTS = [0.6, 0.65, 0.65, 0.75, 0.95, 1.4, 2.3, 2.7, 2.4, 1.3, 0.8, 0.6]

# Extra seeds (lon, lat) per land: long coasts, peninsulas and islands that
# belong to a land but lie far from its anchor.
EXTRA_SEEDS: dict[str, list[tuple[float, float]]] = {
    "Scandinavia": [(9.2, 56.6), (10.0, 61.0), (18.0, 65.0), (25.0, 68.0), (27.0, 62.0)],
    "East Africa": [(46.5, -19.0), (38.0, 0.0), (35.0, -18.0), (31.0, -16.0)],
    "Sunda Islands": [(114.0, 0.5), (110.0, -7.3), (117.0, 3.5), (98.0, 3.0)],
    "Spice Islands": [(120.5, -2.0), (138.0, -5.0), (143.0, -6.5), (125.5, 1.0), (122.0, -4.5)],
    "Eastern Siberia": [
        (142.8, 47.0),
        (108.0, 55.0),
        (110.0, 62.0),
        (125.0, 60.0),
        (142.5, 50.0),
        (160.0, 58.0),
        (135.0, 62.0),
        (130.0, 52.0),
        (158.0, 55.0),
        (140.0, 58.0),
    ],
    "New South Wales": [(146.5, -42.0), (143.0, -38.0), (145.0, -18.0)],
    "Laurentia": [(-56.0, 48.5), (-65.0, 45.0), (-95.0, 57.0), (-70.0, 60.0)],
    "Chekiang": [(121.0, 23.8)],
    "Si-Kyang": [(109.7, 19.2)],
    "Siberian Tundra": [(70.0, 68.0), (110.0, 72.0), (130.0, 69.0), (150.0, 68.0), (55.0, 67.5)],
    "Western Siberia": [(65.0, 60.0), (85.0, 58.0), (97.0, 56.0)],
    "North European Plain": [(40.0, 62.0), (26.0, 56.5), (27.0, 52.0)],
    "Volga": [(52.0, 55.0), (47.0, 47.5)],
    "Kirghiz Steppe": [(54.0, 46.5), (58.0, 49.0), (78.0, 48.0), (82.0, 45.5), (85.5, 45.8)],
    "Sahara": [(0.0, 20.0), (20.0, 22.0), (-12.0, 22.0), (25.0, 17.0)],
    "Arabian Desert": [(38.5, 30.5), (41.5, 30.0), (42.0, 27.0)],
    "Atlas Mountains": [(-10.0, 29.0), (-1.0, 34.5)],
    "Congo": [(14.0, -6.0), (24.0, 3.0), (25.0, -10.0)],
    "Gold Coast": [(-12.0, 11.0), (8.0, 8.0), (-5.0, 12.0)],
    "Upper Nile": [(28.0, 12.0)],
    "Abyssinia": [(44.0, 8.0), (46.0, 3.0)],
    "Cape": [(18.5, -33.0), (30.5, -28.0)],
    "Kalahari": [(17.0, -20.0), (15.0, -17.0), (27.0, -20.0)],
    "Great Australian Desert": [(132.0, -26.0)],
    "Western Australia": [(115.0, -22.0), (121.0, -33.0), (124.0, -19.0), (127.0, -31.5), (131.0, -31.0)],
    "Arnhem Land": [(129.0, -15.0), (140.0, -17.0)],
    "Amazonia": [(-63.0, -8.0), (-42.0, -6.0)],
    "Pampas": [(-58.0, -28.0), (-67.0, -40.0)],
    "Southern Andes": [(-70.0, -33.0), (-65.0, -17.0)],
    "Northern Andes": [(-78.5, -1.5), (-76.0, 1.0)],
    "Orinoco": [(-62.0, 3.5), (-73.0, 9.5), (-75.5, 7.0)],
    "Central America": [(-80.0, 8.5), (-89.5, 19.0)],
    "Yunnan": [(104.0, 24.0)],
    "Middle Tigris": [(40.5, 34.5)],
    "Levant": [(38.5, 35.8)],
    "Palestine": [(35.3, 29.8)],
    "Upper Indus": [(70.0, 30.5), (69.0, 29.5)],
    "Upper Tigris": [(40.0, 36.8), (43.5, 36.8)],
    "Mekong": [(101.5, 18.0), (100.5, 14.5)],
    "Central Europe": [(15.0, 50.3), (19.0, 50.0), (22.0, 49.8)],
    "Mexican Valley": [(-104.0, 22.0), (-108.5, 27.5)],
    "Pacific Seaboard": [(-122.0, 48.0), (-115.0, 34.0), (-125.0, 53.0)],
    "Great Plains": [
        (-100.0, 48.0),
        (-97.0, 31.0),
        (-106.0, 40.0),
        (-103.0, 33.0),
        (-108.0, 50.0),
        (-115.0, 57.0),
        (-120.0, 62.0),
        (-125.0, 66.0),
        (-127.0, 60.0),
        (-121.0, 56.5),
        (-106.0, 54.5),
        (-113.0, 53.0),
    ],
    "Appalachia": [(-83.0, 32.0), (-80.5, 27.5), (-73.5, 42.0)],
    "Tibet": [(80.0, 33.0), (95.0, 32.0), (98.0, 35.0), (101.0, 35.5)],
    "Takla Makan": [(88.0, 40.5), (87.0, 42.3)],
    "Gobi": [(91.0, 43.0), (98.0, 41.0), (97.0, 42.5), (102.0, 39.5)],
    "Mongolia": [(95.0, 48.5), (112.0, 48.0), (111.0, 41.5), (116.0, 42.0), (90.0, 47.5), (108.0, 40.0)],
    "Irrawaddy": [(97.5, 16.5), (96.0, 25.0), (98.7, 13.0)],
    "Malayan Peninsula": [(100.5, 9.0), (99.3, 11.0)],
    "Annam": [(107.5, 14.5)],
    "Hokaido": [],
    "Honshu": [(134.5, 34.8), (140.5, 39.5), (133.3, 33.7)],
    "Kyushu": [],
    "Manchurian Plain": [(128.5, 47.0), (123.0, 41.5)],
    "Korea": [(127.0, 39.5)],
    "Zagros": [(50.0, 31.5), (47.5, 38.3), (46.0, 38.6)],
    "Persian Plateau": [(58.5, 28.0), (61.5, 31.0), (64.5, 28.0)],
    "Persian Salt Desert": [(58.5, 35.0)],
    "Turanian Plain": [(58.0, 41.5), (64.0, 42.5), (70.0, 40.5)],
    "Hindu Kush": [(65.0, 33.0), (71.0, 36.0), (66.5, 31.3)],
    "Arabian Peninsula": [(37.0, 27.0), (44.0, 14.0), (56.0, 20.0), (56.5, 24.0), (49.5, 26.5), (47.8, 28.5)],
    "Lower Indus": [(68.0, 24.5), (67.7, 28.0)],
    "Eastern Ghats": [(77.0, 9.5)],
    "Western Deccan": [(73.5, 16.0), (73.0, 21.5)],
    "Caucasus": [(40.0, 43.5), (47.5, 41.0), (44.5, 40.3)],
    "Western Steppe": [(31.0, 47.0), (40.0, 50.0)],
    "Baltic Seaboard": [(22.0, 55.5), (10.0, 54.2), (13.5, 53.8), (18.0, 54.0)],
    "Western Gaul": [(-3.0, 48.0)],
    "Caledonia": [],
    "Albion": [(-4.0, 50.5)],
    "Western Iberia": [(-8.0, 43.0)],
    "Danubia": [(16.5, 47.5), (25.0, 46.5), (27.0, 47.0), (28.3, 45.0)],
    "Balkans": [(19.5, 43.0)],
    "Western Anatolia": [(27.5, 38.0)],
    "Eastern Anatolia": [(35.0, 40.0), (41.0, 39.3)],
    "Lower Tigris": [(48.0, 29.5)],
    "Libya": [(21.0, 31.5), (13.0, 32.2)],
    "Shatts Plateau": [(3.0, 35.5)],
}

# Relative flood speed (default 1.0): a faster land claims more of the land
# between its seeds and its neighbours'.
SPEED: dict[str, float] = {
    "Sahara": 1.2,
    "Palestine": 0.8,
    "Levant": 0.85,
    "Lower Rhine": 0.85,
    "Nile Delta": 0.9,
}

# Straight walls (lon, lat polylines) the flood may not cross unless both sides
# are the given land: they cut a landmass where a nearest-seed split would
# disagree with the rules' borders.
WALLS: list[list[tuple[float, float]]] = []

# Four-land corners where the rules want each land to border the next in turn
# but neither diagonal pair to touch: [NW, NE, SE, SW] forces an exact corner
# (pixels meeting only at a point do not touch) where a diagonal pair touches.
CORNERS: list[list[str]] = [
    ["Kirghiz Steppe", "Mongolia", "Gobi", "Takla Makan"],
    ["Hindu Kush", "Upper Indus", "Lower Indus", "Persian Plateau"],
    ["Eastern Anatolia", "Caucasus", "Zagros", "Upper Tigris"],
]
CORNER_RADIUS = 10

# Lakes the mask calls land, cut out by hand (lon, lat polygons): the Caspian
# and the Aral Sea. They are no water of the game but a map without them looks wrong.
LAKES: list[list[tuple[float, float]]] = [
    [
        (47.0, 45.6),
        (49.0, 46.6),
        (51.5, 47.0),
        (53.0, 46.7),
        (53.2, 45.3),
        (51.3, 44.5),
        (50.8, 44.0),
        (51.3, 43.2),
        (52.6, 42.4),
        (52.9, 41.0),
        (53.9, 40.6),
        (53.0, 39.5),
        (53.9, 37.3),
        (51.0, 36.7),
        (49.0, 37.5),
        (48.9, 38.5),
        (49.4, 40.2),
        (50.3, 40.4),
        (49.0, 41.5),
        (47.5, 43.0),
        (47.6, 44.0),
        (46.8, 44.6),
    ],
    [(58.5, 46.0), (60.0, 46.4), (61.5, 45.8), (61.0, 44.6), (60.0, 44.0), (59.2, 44.6), (58.5, 45.0)],
]

# The 5-epoch board (data/history/epochs5/map.yaml): extra seeds per territory
# or barren land, as for the classic board above.
EPOCHS5_EXTRA_SEEDS: dict[str, list[tuple[float, float]]] = {
    # Middle East
    "Arabia": [(44.5, 14.5), (56.5, 22.5), (39.0, 24.5), (38.0, 27.0), (49.5, 26.0), (47.8, 28.3)],
    "Empty Quarter": [(41.5, 28.5), (39.8, 31.8), (52.0, 20.0)],
    "Levant": [(35.6, 31.0), (34.5, 29.8), (36.5, 36.2)],
    "Mesopotamia": [(43.5, 36.5), (39.5, 36.0)],
    "Tigris": [(44.5, 32.5), (47.8, 30.4)],
    "Zagros": [(46.0, 38.0), (51.0, 30.0)],
    "Persian Plateau": [(59.0, 35.0), (52.0, 35.5), (61.0, 28.0), (65.0, 28.5)],
    "Anatolia": [(28.0, 39.0), (39.5, 39.5), (42.0, 39.5)],
    # Northern Africa and the Sahara
    "Nile": [(31.0, 30.5), (32.6, 24.5)],
    "Nubia": [(36.5, 18.5), (27.5, 13.0), (31.0, 8.5), (30.5, 21.0)],
    "Libya": [(13.0, 32.0), (22.5, 32.3)],
    "Numidia": [(3.0, 36.0), (10.0, 36.5)],
    "Mauretania": [(-1.0, 34.8), (-9.0, 29.5)],
    "Sahara": [(0.0, 22.0), (20.0, 23.0), (-10.0, 22.0), (-13.0, 25.0), (25.0, 21.0)],
    # Southern Africa
    "Sahel": [(-14.5, 14.0), (-8.0, 15.0), (3.0, 15.5), (12.0, 15.0), (18.0, 14.0), (22.0, 13.0)],
    "Guinea": [(-10.0, 9.0), (-5.0, 7.0), (8.0, 6.5)],
    "Congo": [(15.0, -12.0), (25.0, -8.0), (25.0, 3.0), (13.0, 2.0)],
    "Horn": [(45.5, 5.0), (47.5, 9.0), (38.5, 0.0), (37.5, -5.0), (38.5, -8.5), (38.5, 15.5),
             (33.5, 0.5), (32.5, -4.0)],
    "Zambezi": [(32.5, -13.0), (25.5, -18.0)],
    "Cape": [(18.5, -33.0), (30.5, -28.0), (33.5, -20.0), (36.5, -16.0)],
    "Kalahari": [(15.5, -21.0), (17.0, -27.0), (23.0, -19.8), (13.0, -17.5)],
    # Europe
    "Iberia": [(-8.0, 42.5), (-8.0, 38.0), (2.9, 39.6)],
    "Gaul": [(-2.5, 48.0), (0.0, 44.0), (5.0, 44.0), (1.8, 50.8)],
    "Britannia": [(-4.0, 56.5), (-4.0, 50.5), (1.0, 51.2)],
    "Rhineland": [(5.0, 52.0), (4.5, 50.8)],
    "Alamannia": [(13.5, 53.8), (18.0, 54.0), (21.0, 53.0), (22.0, 54.5), (19.5, 51.0), (8.5, 47.5),
                  (24.5, 52.0)],
    "Scandinavia": [(9.2, 56.6), (10.0, 61.0), (18.0, 65.0), (25.0, 68.0), (27.0, 62.0)],
    "Bohemia": [(14.5, 50.0), (19.5, 47.5), (22.0, 48.5)],
    "Etruria": [(8.0, 45.0), (12.5, 45.5), (9.0, 40.0)],
    "Latium": [(16.5, 39.0), (17.0, 40.7)],
    "Illyria": [(15.5, 45.0), (24.5, 45.5), (28.0, 45.3)],
    "Macedonia": [(27.0, 41.5), (25.5, 43.0)],
    "Pindus": [(22.5, 37.5)],
    # Eurasia
    "Volga": [(33.0, 58.0), (29.5, 59.5), (26.0, 56.5), (45.0, 52.0), (55.0, 58.0)],
    "Scythia": [(30.0, 47.5), (28.0, 50.5), (55.0, 48.0), (65.0, 49.0), (75.0, 47.5)],
    "Caucasus": [(40.0, 43.5), (47.5, 41.0)],
    "Turan": [(58.0, 40.0), (71.0, 40.5), (73.5, 38.5)],
    "Tarim Basin": [(88.0, 43.5), (76.0, 39.5), (93.0, 40.0), (86.5, 47.0), (97.5, 39.0)],
    "Mongolia": [(94.0, 48.0), (112.0, 47.5), (116.0, 47.0)],
    "Siberia": [(70.0, 60.0), (62.0, 62.0), (110.0, 60.0), (125.0, 62.0), (150.0, 65.0),
                (105.0, 54.0), (80.0, 55.0), (86.0, 51.5), (130.0, 69.0), (110.0, 72.0), (70.0, 68.0)],
    "Gobi": [(97.5, 41.0), (110.0, 43.0), (114.0, 44.0)],
    "Himalayas": [(80.0, 33.5), (95.0, 31.0), (98.5, 34.0), (92.0, 35.5), (77.5, 35.5), (96.5, 29.5)],
    # India
    "Hindu Kush": [(65.0, 33.0), (66.5, 31.0), (74.5, 34.5), (72.5, 35.8)],
    "Indus": [(72.5, 31.0), (70.0, 29.5), (69.5, 23.0)],
    "Deccan": [(72.5, 22.0), (74.0, 15.5)],
    "Ghats": [(76.0, 9.5)],
    "Kalinga": [(80.0, 16.5)],
    "Ganges": [(77.5, 28.5), (77.5, 31.0), (85.5, 25.5), (78.0, 24.0)],
    "Bengal": [(92.5, 26.0)],
    # Southeast Asia and Australasia
    "Irrawaddy": [(97.5, 25.5), (97.5, 27.5)],
    "Siam": [(99.0, 18.5), (99.5, 11.0)],
    "Mekong": [(103.0, 18.5), (106.0, 10.5), (101.5, 20.5)],
    "Annam": [(107.5, 16.0)],
    "Malaya": [(100.5, 7.5)],
    "Sumatra": [(98.0, 3.0), (104.0, -3.5)],
    "Java": [(107.0, -7.0), (113.0, -7.8)],
    "Borneo": [(116.5, 5.0), (112.0, -1.5)],
    "Moluccas": [(120.5, 1.0), (125.0, 1.0), (128.0, -3.5), (117.5, -8.5), (124.5, -9.5), (122.0, -9.0)],
    "New Guinea": [(138.0, -4.0), (147.0, -7.0)],
    "Philippines": [(121.0, 16.5), (125.0, 7.5), (118.5, 9.5)],
    "Australia": [(118.0, -25.0), (146.0, -32.0), (145.0, -20.0), (130.0, -15.0), (146.5, -42.0)],
    # China and the Far East
    "Wei": [(103.5, 36.0)],
    "Huang He": [(118.0, 36.5), (112.0, 38.0), (116.5, 40.0)],
    "Yunnan": [(105.0, 26.0)],
    "Yangtze": [(120.0, 30.0), (118.0, 32.0), (111.5, 30.5), (119.0, 26.0)],
    "Lingnan": [(109.0, 22.0), (108.0, 24.5)],
    "Sichuan": [(100.0, 30.0)],
    "Manchuria": [(123.0, 41.5), (128.0, 47.0)],
    "Amur": [(140.0, 53.5), (133.0, 46.0), (142.8, 50.0), (158.0, 55.0)],
    "Korea": [(126.5, 39.5)],
    "Honshu": [(133.5, 34.8), (140.5, 39.5), (142.5, 43.5)],
    # North America
    "Northern Lakes": [(-85.0, 50.0), (-72.0, 50.0), (-63.0, 53.0), (-115.0, 60.0), (-95.0, 64.0),
                       (-80.0, 47.0), (-125.0, 62.0), (-56.0, 48.5)],
    "Cascadia": [(-123.0, 50.0), (-120.0, 40.0), (-126.5, 54.0)],
    "Great Basin": [(-114.0, 32.5), (-116.0, 36.0)],
    "Great Plains": [(-98.0, 32.0), (-105.0, 45.0), (-104.0, 38.0), (-98.0, 28.5)],
    "Mississippi": [(-90.0, 31.0), (-91.5, 30.5), (-88.5, 33.0), (-89.0, 42.0), (-92.0, 45.0)],
    "Appalachia": [(-73.0, 42.0), (-70.0, 44.0), (-82.0, 29.0), (-84.0, 33.5)],
    "Mexico": [(-104.0, 24.0), (-99.0, 19.0), (-107.0, 28.0)],
    "Yucatan": [(-89.0, 20.5), (-86.0, 14.0), (-84.5, 11.0), (-80.0, 8.5)],
    "Antilles": [(-72.0, 19.0), (-66.5, 18.2), (-77.5, 18.0)],
    # South America
    "Orinoco": [(-74.0, 5.0), (-62.0, 6.0), (-57.0, 4.5)],
    "Andes": [(-78.5, -1.5), (-66.0, -17.0), (-71.0, -14.5)],
    "Amazon": [(-70.0, -5.0), (-52.0, -2.0), (-60.0, -12.0)],
    "Brazil": [(-40.0, -6.0), (-47.0, -20.0), (-52.0, -27.0)],
    "Pampas": [(-57.0, -33.0), (-58.0, -23.0), (-60.0, -21.0)],
    "Patagonia": [(-71.5, -35.0), (-72.0, -45.0)],
    "Atacama": [(-70.0, -20.0)],
}

EPOCHS5_CORNERS: list[list[str]] = [
    ["Himalayas", "Sichuan", "Yunnan", "Irrawaddy"],
]

# Straits the mask closes at this scale but the 5-epoch map keeps as water
# (lon, lat polygons cut out of the land): Hormuz, between Arabia and Zagros.
EPOCHS5_WATER_CUTS: list[list[tuple[float, float]]] = [
    [(55.6, 26.9), (56.8, 27.0), (56.9, 26.0), (56.4, 25.9)],
]

SMALL_ISLAND_PX = 400  # unseeded islands smaller than this join the nearest land...
ISLAND_REACH_PX = 24  # ...if it lies within this many pixels


# --- projection -------------------------------------------------------------


def _integral(knots: list[int], weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
    t = np.linspace(knots[0], knots[-1], 20001)
    w = np.interp(t, knots, weights)
    acc = np.concatenate([[0.0], np.cumsum((w[1:] + w[:-1]) / 2 * np.diff(t))])
    return t, acc


class Projection:
    """The smoothly varying equirectangular projection described above, for one board."""

    def __init__(
        self,
        lon_knots: list[int],
        lon_weights: list[float],
        lat_knots: list[int],
        lat_weights: list[float],
        width: int = WIDTH,
    ) -> None:
        self.lon_knots, self.lon_weights = lon_knots, lon_weights
        self.lat_knots, self.lat_weights = lat_knots, lat_weights
        self.lon_t, self.lon_acc = _integral(lon_knots, lon_weights)
        self.lat_t, self.lat_acc = _integral(lat_knots, lat_weights)
        self.width = width
        self.scale = width / self.lon_acc[-1]
        self.height = round(self.lat_acc[-1] * self.scale)

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        """Pixel (x, y) of a point (fractional; y grows downwards)."""
        x = float(np.interp(lon, self.lon_t, self.lon_acc)) * self.scale
        y = (self.lat_acc[-1] - float(np.interp(lat, self.lat_t, self.lat_acc))) * self.scale
        return x, y

    def unproject_x(self, x: np.ndarray) -> np.ndarray:
        return np.interp(x / self.scale, self.lon_acc, self.lon_t)

    def unproject_y(self, y: np.ndarray) -> np.ndarray:
        return np.interp(self.lat_acc[-1] - y / self.scale, self.lat_acc, self.lat_t)

    def as_json(self) -> dict[str, Any]:
        return {
            "lon_knots": self.lon_knots,
            "lon_weights": self.lon_weights,
            "lat_knots": self.lat_knots,
            "lat_weights": self.lat_weights,
            "scale": round(self.scale, 6),
        }


CLASSIC_PROJECTION = Projection(LON_KNOTS, LON_WEIGHTS, LAT_KNOTS, LAT_WEIGHTS)

# The 5-epoch board: the same crop, with more room for the Americas (14
# territories there against the classic 11) and less for the open oceans.
EPOCHS5_PROJECTION = Projection(
    [-128, -100, -75, -55, -35, -18, -8, 10, 30, 45, 60, 75, 90, 105, 120, 135, 150, 162],
    [0.8, 0.85, 0.9, 0.75, 0.28, 0.38, 1.5, 1.95, 1.85, 1.55, 1.15, 1.15, 1.2, 1.3, 1.2, 0.8, 0.5, 0.35],
    LAT_KNOTS,
    [0.55, 0.6, 0.7, 0.95, 1.15, 1.45, 2.2, 2.5, 2.2, 1.2, 0.75, 0.55],
)


# --- land mask --------------------------------------------------------------


def land_mask(proj: Projection, cuts: Sequence[list[tuple[float, float]]] = ()) -> np.ndarray:
    """Land pixels of the board: the mask minus the lakes and any extra water ``cuts``."""
    from global_land_mask import globe

    mask = globe._mask  # True on ocean; rows lat 90..-90, columns lon -180..180, 1/120 degree
    rows, cols = mask.shape
    sub = (np.arange(SUPERSAMPLE) + 0.5) / SUPERSAMPLE
    width, height = proj.width, proj.height
    xs = (np.arange(width)[:, None] + sub[None, :]).ravel()
    ys = (np.arange(height)[:, None] + sub[None, :]).ravel()
    lon = proj.unproject_x(xs)
    lat = proj.unproject_y(ys)
    ci = np.clip(((lon + 180.0) / 360.0 * cols).astype(int), 0, cols - 1)
    ri = np.clip(((90.0 - lat) / 180.0 * rows).astype(int), 0, rows - 1)
    samples = (~mask[np.ix_(ri, ci)]).astype(np.uint8)
    votes = samples.reshape(height, SUPERSAMPLE, width, SUPERSAMPLE).sum(axis=(1, 3))
    land = votes * 2 > SUPERSAMPLE * SUPERSAMPLE
    lakes = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(lakes)
    for poly in [*LAKES, *cuts]:
        draw.polygon([proj.project(lon, lat) for lon, lat in poly], fill=1)
    return land & (np.asarray(lakes) == 0)


def components(mask: np.ndarray) -> tuple[np.ndarray, int]:
    """4-connected components of True pixels (labels 1..n, 0 elsewhere)."""
    h, w = mask.shape
    lab = np.zeros((h, w), dtype=np.int32)
    flat = mask.ravel()
    out = lab.ravel()
    n = 0
    for start in np.flatnonzero(flat):
        if out[start]:
            continue
        n += 1
        out[start] = n
        stack = [int(start)]
        while stack:
            i = stack.pop()
            y, x = divmod(i, w)
            for j, ok in ((i - 1, x > 0), (i + 1, x < w - 1), (i - w, y > 0), (i + w, y < h - 1)):
                if ok and flat[j] and not out[j]:
                    out[j] = n
                    stack.append(j)
    return lab, n


# --- the flood --------------------------------------------------------------


def snap(mask: np.ndarray, x: float, y: float) -> tuple[int, int]:
    xi, yi = round(x), round(y)
    if 0 <= yi < mask.shape[0] and 0 <= xi < mask.shape[1] and mask[yi, xi]:
        return xi, yi
    ys, xs = np.nonzero(mask)
    k = int(np.argmin((xs - x) ** 2 + (ys - y) ** 2))
    return int(xs[k]), int(ys[k])


def flood(mask: np.ndarray, seeds: list[tuple[int, int, int]], speed: dict[int, float]) -> np.ndarray:
    """Multi-source Dijkstra through land pixels; returns the id of the first seed to arrive."""
    h, w = mask.shape
    flat = mask.ravel().tolist()
    owner = [0] * (h * w)
    dist = [math.inf] * (h * w)
    heap: list[tuple[float, int, int]] = []
    for x, y, lid in seeds:
        i = y * w + x
        dist[i] = 0.0
        heapq.heappush(heap, (0.0, i, lid))
    steps = [(-1, 0, 1.0), (1, 0, 1.0), (0, -1, 1.0), (0, 1, 1.0)]
    steps += [(-1, -1, 1.4142), (1, -1, 1.4142), (-1, 1, 1.4142), (1, 1, 1.4142)]
    while heap:
        d, i, lid = heapq.heappop(heap)
        if owner[i]:
            continue
        owner[i] = lid
        y, x = divmod(i, w)
        sp = speed.get(lid, 1.0)
        for dx, dy, c in steps:
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h:
                j = ny * w + nx
                if flat[j] and not owner[j]:
                    nd = d + c / sp
                    if nd < dist[j]:
                        dist[j] = nd
                        heapq.heappush(heap, (nd, j, lid))
    return np.array(owner, dtype=np.int32).reshape(h, w)


def force_corners(ids: np.ndarray, id_of: dict[str, int], corners: list[list[str]]) -> None:
    h, w = ids.shape
    for quad in corners:
        q = [id_of[n] for n in quad]
        pairs = border_pairs(ids)
        touch = pairs.get(tuple(sorted((q[0], q[2]))), []) + pairs.get(tuple(sorted((q[1], q[3]))), [])
        if not touch:
            continue
        cx = round(sum(p[0] for p in touch) / len(touch)) + 1
        cy = round(sum(p[1] for p in touch) / len(touch)) + 1
        for y in range(max(0, cy - CORNER_RADIUS), min(h, cy + CORNER_RADIUS)):
            for x in range(max(0, cx - CORNER_RADIUS), min(w, cx + CORNER_RADIUS)):
                if ids[y, x] in q:
                    ids[y, x] = q[(0 if x < cx else 1) if y < cy else (3 if x < cx else 2)]


def assign_islands(ids: np.ndarray, mask: np.ndarray, off: int = OFF_BOARD) -> None:
    """Give unseeded islands to the nearest land when small and close; the rest are off board (``off``)."""
    left = mask & (ids == 0)
    lab, n = components(left)
    land_y, land_x = np.nonzero(ids > 0)
    for k in range(1, n + 1):
        ys, xs = np.nonzero(lab == k)
        if len(xs) < SMALL_ISLAND_PX:
            cx, cy = xs.mean(), ys.mean()
            near = (np.abs(land_x - cx) < 80) & (np.abs(land_y - cy) < 80)
            if near.any():
                lx, ly = land_x[near], land_y[near]
                # distance from any island pixel to any land pixel nearby
                best, arg = math.inf, -1
                for px, py in zip(xs[:: max(1, len(xs) // 50)], ys[:: max(1, len(ys) // 50)], strict=True):
                    d2 = (lx - px) ** 2 + (ly - py) ** 2
                    a = int(np.argmin(d2))
                    if d2[a] < best:
                        best, arg = float(d2[a]), a
                if best <= ISLAND_REACH_PX**2:
                    ids[ys, xs] = ids[ly[arg], lx[arg]]
                    continue
        ids[ys, xs] = off


# --- geometry ---------------------------------------------------------------


def inner_distance(ids: np.ndarray) -> np.ndarray:
    """For each pixel, how many 4-erosions of its own region it survives (sea counts as region 0)."""
    d = np.zeros(ids.shape, dtype=np.int32)
    alive = np.ones(ids.shape, dtype=bool)
    pad = np.pad(ids, 1, mode="edge")
    same = (pad[1:-1, :-2] == ids) & (pad[1:-1, 2:] == ids) & (pad[:-2, 1:-1] == ids) & (pad[2:, 1:-1] == ids)
    alive &= same
    while alive.any():
        d += alive
        p = np.pad(alive, 1, constant_values=False)
        alive = alive & p[1:-1, :-2] & p[1:-1, 2:] & p[:-2, 1:-1] & p[2:, 1:-1]
    return d


def text_box(text: str, size: int, bold: bool = True) -> tuple[int, int]:
    from render.palette import font

    f: ImageFont.FreeTypeFont = font(size, bold)
    left, top, right, bottom = f.getbbox(text)
    return int(right - left), int(bottom - top)


LABEL_SIZE = 11
SLOT_DX = 21  # army spacing
ROW_DY = 20  # between the army row and the structures row


def split_label(name: str, width_avail: float) -> list[str]:
    w, _ = text_box(name, LABEL_SIZE)
    words = name.split()
    if w <= width_avail or len(words) < 2:
        return [name]
    best = [name]
    best_w = math.inf
    for k in range(1, len(words)):
        a, b = " ".join(words[:k]), " ".join(words[k:])
        mw = max(text_box(a, LABEL_SIZE)[0], text_box(b, LABEL_SIZE)[0])
        if mw < best_w:
            best, best_w = [a, b], mw
    return best


def rect_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def _box_cost(
    ids: np.ndarray,
    lid: int,
    c: tuple[float, float],
    wh: tuple[float, float],
    hard: list[tuple[float, float, float, float]],
    weights: tuple[float, float, float],
) -> float:
    h, w = ids.shape
    box = (c[0] - wh[0] / 2, c[1] - wh[1] / 2, c[0] + wh[0] / 2, c[1] + wh[1] / 2)
    if box[0] < 2 or box[1] < 2 or box[2] > w - 2 or box[3] > h - 2:
        return math.inf
    x0, y0, x1, y1 = (round(v) for v in box)
    patch = ids[y0:y1, x0:x1]
    n = max(1, patch.size)
    own = float((patch == lid).sum()) / n
    sea = float((patch == 0).sum()) / n
    other = 1.0 - own - sea
    clash = sum(rect_overlap(box, p) for p in hard) / n
    own_w, other_w, sea_w = weights
    return -own * own_w + other * other_w + sea * sea_w + clash * 40


def layout(ids: np.ndarray, wmap: Any, name_of: dict[int, str]) -> dict[str, Any]:
    """Piece slots and label position of every land, avoiding each other where the map allows.

    Pieces come first, since they are the game: each land's block of slots (a
    row of three armies over a row for fort, capital/city and monument) sits on
    the land's most inland point, nudged to stay on the land and off blocks
    already placed (smallest lands first: they have the fewest good spots).
    Then each name goes right beside its block (above, below or to a side),
    clear of every block and name, off other lands where it can. Barren lands
    hold no pieces and get a name only.
    """
    dist = inner_distance(ids)
    id_of = {v: k for k, v in name_of.items()}
    order = sorted(id_of, key=lambda n: int((ids == id_of[n]).sum()))
    boxes: list[tuple[float, float, float, float]] = []
    lands: dict[str, Any] = {}
    cw, ch = 3 * SLOT_DX, ROW_DY + SLOT_DX
    for name in order:
        lid = id_of[name]
        ys, xs = np.nonzero(ids == lid)
        cx, cy = float(xs.mean()), float(ys.mean())
        dd = dist[ys, xs]
        k = int(np.argmax(dd - 0.05 * np.hypot(xs - cx, ys - cy)))
        px, py = float(xs[k]), float(ys[k])
        g: dict[str, Any] = {
            "id": lid,
            "centroid": [round(cx, 1), round(cy, 1)],
            "pole": [px, py],
            "slots": [],
            "pixels": len(xs),
        }
        lands[name] = g
        if wmap.lands[name].area is None:
            continue
        cands = [(px + ox, py + 6 + oy) for ox in range(-14, 15, 2) for oy in range(-14, 15, 2)]
        bx, by = min(
            cands,
            key=lambda c: (
                _box_cost(ids, lid, c, (cw, ch), boxes, (4.0, 3.0, 0.5))
                + math.hypot(c[0] - px, c[1] - py - 6) * 0.01
            ),
        )
        boxes.append(_box((bx, by), (cw, ch)))
        ay = by - ch / 2 + SLOT_DX / 2
        sy = ay + ROW_DY
        g["slots"] = [[round(bx + (i - 1) * SLOT_DX, 1), round(ay, 1)] for i in range(3)]
        g["slots"] += [[round(bx + (i - 1) * SLOT_DX, 1), round(sy, 1)] for i in range(3)]
        g["pieces_box"] = [round(v, 1) for v in boxes[-1]]
    for name in order:
        g = lands[name]
        lid = g["id"]
        px, py = g["pole"]
        row = np.nonzero(ids[int(py)] == lid)[0]
        lines = split_label(name, max(40.0, float(len(row)) + 8))
        tw = max(text_box(s, LABEL_SIZE)[0] for s in lines) + 4
        th = len(lines) * (LABEL_SIZE + 2) + 2
        if "pieces_box" in g:
            pb = g["pieces_box"]
            mx, my = (pb[0] + pb[2]) / 2, (pb[1] + pb[3]) / 2
            cands = [(mx + dx, pb[1] - th / 2) for dx in range(-16, 17, 2)]
            cands += [(mx + dx, pb[3] + th / 2) for dx in range(-16, 17, 2)]
            cands += [(pb[2] + tw / 2, my + dy) for dy in range(-12, 13, 2)]
            cands += [(pb[0] - tw / 2, my + dy) for dy in range(-12, 13, 2)]
            want = cands[8]
        else:
            want = (px, py)
            cands = [(px + ox, py + oy) for ox in range(-30, 31, 2) for oy in range(-30, 31, 2)]
        lx, ly = min(
            cands,
            key=lambda c: (
                _box_cost(ids, lid, c, (tw, th), boxes, (4.0, 3.0, 0.6))
                + math.hypot(c[0] - want[0], c[1] - want[1]) * 0.01
            ),
        )
        boxes.append(_box((lx, ly), (tw, th)))
        g["label"] = [round(lx, 1), round(ly, 1)]
        g["label_lines"] = lines
        g["label_box"] = [round(v, 1) for v in boxes[-1]]
    return {n: lands[n] for n in order}


def _box(c: tuple[float, float], wh: tuple[float, float]) -> tuple[float, float, float, float]:
    return (c[0] - wh[0] / 2, c[1] - wh[1] / 2, c[0] + wh[0] / 2, c[1] + wh[1] / 2)


def split_water(name: str) -> list[str]:
    words = name.split()
    if len(words) >= 3:
        return [" ".join(words[:-1]), words[-1]]
    if name == "Western Mediterranean" or name == "Eastern Mediterranean":
        return words
    return [name]


def water_geometry(ids: np.ndarray, wmap: Any, lands: dict[str, Any], proj: Projection) -> dict[str, Any]:
    out: dict[str, Any] = {}
    boxes = [tuple(v["label_box"]) for v in lands.values()]
    boxes += [tuple(v["pieces_box"]) for v in lands.values() if "pieces_box" in v]
    for name, water in wmap.waters.items():
        x, y = proj.project(*water.anchor)
        lines = split_water(name)
        tw = max(text_box(s, 12)[0] for s in lines)
        th = len(lines) * 14
        # Nudge off land and off land labels.
        best = None
        for ox in range(-80, 81, 4):
            for oy in range(-50, 51, 4):
                bx, by = x + ox, y + oy
                box = (bx - tw / 2 - 4, by - th / 2 - 2, bx + tw / 2 + 4, by + th / 2 + 26)
                if box[0] < 0 or box[1] < 0 or box[2] > ids.shape[1] or box[3] > ids.shape[0]:
                    continue
                x0, y0, x1, y1 = (int(v) for v in box)
                land = float((ids[y0:y1, x0:x1] != 0).mean())
                clash = sum(rect_overlap(box, b) for b in boxes) / ((x1 - x0) * (y1 - y0))
                cost = land * 10 + clash * 40 + math.hypot(ox, oy) * 0.02
                if best is None or cost < best[0]:
                    best = (cost, bx, by)
        assert best is not None
        _, bx, by = best
        out[name] = {
            "label": [round(bx, 1), round(by, 1)],
            "label_lines": lines,
            "fleet": [round(bx, 1), round(by + th / 2 + 14, 1)],
        }
    return out


def border_pairs(ids: np.ndarray, off: int = OFF_BOARD) -> dict[tuple[int, int], list[tuple[int, int]]]:
    pairs: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for a, b, ys, xs in (
        (ids[:, :-1], ids[:, 1:], *np.nonzero(ids[:, :-1] != ids[:, 1:])),
        (ids[:-1, :], ids[1:, :], *np.nonzero(ids[:-1, :] != ids[1:, :])),
    ):
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            p, q = int(a[y, x]), int(b[y, x])
            if p and q and p != off and q != off:
                pairs.setdefault((min(p, q), max(p, q)), []).append((x, y))
    return pairs


def nearest_gap(ids: np.ndarray, a: int, b: int) -> tuple[float, tuple[int, int], tuple[int, int]]:
    ay, ax = np.nonzero(ids == a)
    by, bx = np.nonzero(ids == b)
    # coast pixels only keep this fast
    step_a = max(1, len(ax) // 3000)
    step_b = max(1, len(bx) // 3000)
    ax, ay, bx, by = ax[::step_a], ay[::step_a], bx[::step_b], by[::step_b]
    d2 = (ax[:, None] - bx[None, :]) ** 2 + (ay[:, None] - by[None, :]) ** 2
    i, j = np.unravel_index(int(np.argmin(d2)), d2.shape)
    return math.sqrt(float(d2[i, j])), (int(ax[i]), int(ay[i])), (int(bx[j]), int(by[j]))


@dataclass(frozen=True)
class Profile:
    """The hand-tuned flood settings of one map (see the module docstring)."""

    projection: Projection
    extra_seeds: dict[str, list[tuple[float, float]]]
    speed: dict[str, float] = field(default_factory=dict)
    corners: list[list[str]] = field(default_factory=list)
    water_cuts: list[list[tuple[float, float]]] = field(default_factory=list)


PROFILES: dict[str, Profile] = {
    "classic": Profile(CLASSIC_PROJECTION, EXTRA_SEEDS, SPEED, CORNERS),
    "epochs5": Profile(EPOCHS5_PROJECTION, EPOCHS5_EXTRA_SEEDS, {}, EPOCHS5_CORNERS, EPOCHS5_WATER_CUTS),
}


# --- 7 Ages: land and sea areas -----------------------------------------------

# The 7 Ages board (data/seven_ages/map.yaml): every sea and ocean is an area
# too, so water is partitioned like land. The crop runs east to the date line,
# where the blue arrow wraps the South Pacific round to Galapagos (L606), and
# north to 78 degrees for the Arctic seas. Europe and the Middle East, where the
# areas are smallest, are drawn largest.
SEVEN_AGES_PROJECTION = Projection(
    [-130, -100, -75, -55, -35, -18, -8, 10, 30, 45, 60, 75, 90, 105, 120, 135, 150, 165, 180],
    [0.8, 0.9, 1.0, 0.75, 0.3, 0.4, 1.8, 2.4, 2.3, 1.9, 1.35, 1.3, 1.2, 1.25, 1.2, 0.9, 0.6, 0.45, 0.4],
    [-46, -30, -15, 0, 15, 28, 36, 45, 55, 62, 68, 78],
    [0.6, 0.65, 0.7, 0.85, 1.05, 1.4, 2.3, 2.7, 2.4, 1.3, 0.75, 0.45],
    width=2200,
)
# The Bosporus, the Sea of Marmara and the Dardanelles, closed by the mask at this scale: the
# Black Sea meets the Aegean there.
SEVEN_AGES_WATER_CUTS: list[list[tuple[float, float]]] = [
    [(26.1, 40.0), (26.6, 40.7), (28.9, 41.3), (29.2, 41.3), (29.3, 40.9), (28.8, 40.4), (27.0, 40.2),
     (26.4, 39.8)],
]
SEVEN_AGES_OFF = 65535  # off-board pixels (lakes, unseeded islands, water no sea reaches)


def lake_mask(proj: Projection) -> np.ndarray:
    """Pixels of the lakes cut out of the land (no water of the game: they belong to no area)."""
    lakes = Image.new("L", (proj.width, proj.height), 0)
    draw = ImageDraw.Draw(lakes)
    for poly in LAKES:
        draw.polygon([proj.project(lon, lat) for lon, lat in poly], fill=1)
    out: np.ndarray = np.asarray(lakes) == 1
    return out


def area_geometry(ids: np.ndarray, names: list[str]) -> dict[str, Any]:
    """Centroid, label point (the most inland pixel near the middle) and size of every area."""
    dist = inner_distance(ids)
    out: dict[str, Any] = {}
    for i, name in enumerate(names, start=1):
        ys, xs = np.nonzero(ids == i)
        if not len(xs):
            out[name] = {"id": i, "pixels": 0}
            continue
        cx, cy = float(xs.mean()), float(ys.mean())
        k = int(np.argmax(dist[ys, xs] - 0.05 * np.hypot(xs - cx, ys - cy)))
        out[name] = {"id": i, "centroid": [round(cx, 1), round(cy, 1)], "pole": [int(xs[k]), int(ys[k])],
                     "radius": int(dist[ys[k], xs[k]]), "pixels": len(xs)}
    return out


COAST_REACH_PX = 14  # two seas meeting this close to a land's shore are one coast of it
# Lands whose seas are separate coasts whatever the drawing shows: Schleswig's Baltic and North Sea
# coasts are joined only by the Kiel canal (L1582), though Jutland is a few pixels wide here.
SPLIT_COASTS: frozenset[str] = frozenset({"Schleswig"})


def coast_groups(pairs: dict[tuple[int, int], list[tuple[int, int]]], names: list[str], land: set[int]
                 ) -> dict[str, list[list[str]]]:
    """The coasts of every land that has more than one: its seas, grouped by where they meet.

    Two seas a land borders are on the same coast when they meet near its shore
    (so a ship may go round); otherwise land lies between them and a ship there
    must choose its coast (Yucatan, L648; Schleswig without the Kiel canal, L1582).
    """
    seas_of: dict[int, list[int]] = {}
    for a, b in pairs:
        if (a in land) != (b in land):
            lnd, sea = (a, b) if a in land else (b, a)
            seas_of.setdefault(lnd, []).append(sea)
    out: dict[str, list[list[str]]] = {}
    for lnd, seas in seas_of.items():
        if len(seas) < 2:
            continue
        shore = np.array([p for s in seas for p in pairs[(min(lnd, s), max(lnd, s))]], dtype=np.float64)
        group = {s: s for s in seas}

        def find(s: int, group: dict[int, int] = group) -> int:
            while group[s] != s:
                s = group[s]
            return s

        split = names[lnd - 1] in SPLIT_COASTS
        for i, s in enumerate(seas):
            for t in seas[i + 1:]:
                meet = None if split else pairs.get((min(s, t), max(s, t)))
                if not meet:
                    continue
                m = np.array(meet, dtype=np.float64)
                step = max(1, len(m) // 400)
                d2 = ((m[::step, None, :] - shore[None, ::max(1, len(shore) // 400), :]) ** 2).sum(axis=2)
                if float(d2.min()) <= COAST_REACH_PX**2:
                    group[find(s)] = find(t)
        groups: dict[int, list[str]] = {}
        for s in seas:
            groups.setdefault(find(s), []).append(names[s - 1])
        if len(groups) > 1:
            out[names[lnd - 1]] = sorted(sorted(g) for g in groups.values())
    return out


def _flow(entry: dict[str, Any]) -> str:
    """One map.yaml entry as the one-line flow mapping the file is written in."""
    return "  - {" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in entry.items()) + "}"


def sync_seven_ages_map(map_path: Path, geometry: dict[str, Any]) -> None:
    """Rewrite map.yaml's borders and coasts from the raster, keeping every other line.

    A border that stays keeps its attributes (river, source); a new contact becomes a border of
    ours; contacts listed under ``closed`` stay out. Run after moving anchors or seeds.
    """
    import yaml

    lines = map_path.read_text(encoding="utf-8").splitlines()
    raw = yaml.safe_load("\n".join(lines))
    kinds = {a["name"]: a["kind"] for a in raw["areas"]}
    old = {frozenset((b["a"], b["b"])): b for b in raw["borders"]}
    closed = {frozenset((c["a"], c["b"])) for c in raw["closed"]}
    pairs = [tuple(sorted(c)) for c in geometry["contacts"] if frozenset(c) not in closed]
    pairs.sort(key=lambda p: (kinds[p[0]] != "land" or kinds[p[1]] != "land", p))
    borders = [old.get(frozenset(p), {"a": p[0], "b": p[1], "source": "ours"}) for p in pairs]
    for pair in set(old) - {frozenset(p) for p in pairs}:
        print("border dropped (no longer touching):", " / ".join(sorted(pair)), file=sys.stderr)
    out: list[str] = []
    section = ""
    for line in lines:
        if line and not line.startswith((" ", "#")):
            section = line.split(":")[0]
            if section == "borders":
                out.append(line)
                out.extend(_flow(b) for b in borders)
                continue
        if section == "borders" and line.startswith("  - "):
            continue
        if section == "areas" and line.startswith("  - "):
            entry = yaml.safe_load(line[4:])
            groups = geometry["coasts"].get(entry["name"])
            entry.pop("coasts", None)
            if groups:
                items = list(entry.items())
                at = next(i for i, (k, _) in enumerate(items) if k == "anchor")
                items.insert(at, ("coasts", {g[0]: g for g in groups}))
                entry = dict(items)
            line = _flow(entry)
        out.append(line)
    map_path.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"rewrote the borders ({len(borders)}) and coasts of {map_path}", file=sys.stderr)


def build_seven_ages(map_path: Path, out: Path, sync: bool = False) -> int:
    """The 7 Ages raster: land areas flood through land, sea areas through water.

    With ``sync``, map.yaml's borders and coasts are then rewritten from the raster.
    """
    from engine.seven_ages.map import read_map

    wmap = read_map()
    proj = SEVEN_AGES_PROJECTION
    names = list(wmap.areas)
    id_of = {n: i for i, n in enumerate(names, start=1)}
    print(f"projection: {proj.width}x{proj.height}", file=sys.stderr)
    land = land_mask(proj, SEVEN_AGES_WATER_CUTS)
    water = ~land & ~lake_mask(proj)
    layers = []
    for kind_is_land, mask in ((True, land), (False, water)):
        seeds = []
        for name in names:
            area = wmap.areas[name]
            if area.land == kind_is_land:
                for lon, lat in [area.anchor, *area.seeds]:
                    x, y = snap(mask, *proj.project(lon, lat))
                    seeds.append((x, y, id_of[name]))
        layer = flood(mask, seeds, {})
        if kind_is_land:
            assign_islands(layer, mask, off=SEVEN_AGES_OFF)
        layer[mask & (layer == 0)] = SEVEN_AGES_OFF
        layers.append(layer)
    ids = np.full(land.shape, SEVEN_AGES_OFF, dtype=np.int32)
    ids[land] = layers[0][land]
    ids[water] = layers[1][water]
    out.mkdir(parents=True, exist_ok=True)
    Image.fromarray(ids.astype(np.uint16)).save(out / "areas.png", optimize=True)
    pairs = border_pairs(ids, off=SEVEN_AGES_OFF)
    contacts = sorted(sorted((names[a - 1], names[b - 1])) for a, b in pairs)
    areas = area_geometry(ids, names)
    arrows = []
    for arrow in wmap.arrows:
        if arrow.blue:
            # The wrap-around: half an arrow leaves each edge of the board towards its area.
            a, b = areas[arrow.a]["pole"], areas[arrow.b]["pole"]
            left, right = (a, b) if a[0] < b[0] else (b, a)
            arrows.append({"areas": [arrow.a, arrow.b], "blue": True,
                           "west": [[left[0], left[1]], [0, left[1]]],
                           "east": [[right[0], right[1]], [proj.width - 1, right[1]]]})
        else:
            gap, pa, pb = nearest_gap(ids, id_of[arrow.a], id_of[arrow.b])
            arrows.append({"areas": [arrow.a, arrow.b], "line": [list(pa), list(pb)], "gap": round(gap, 1)})
    geometry = {
        "source": "global-land-mask 1.0 (MIT; GLOBE 1-km data, NOAA); tools/build_map_raster.py",
        "width": proj.width,
        "height": proj.height,
        "off_board": SEVEN_AGES_OFF,
        "projection": proj.as_json(),
        "ids": {str(i): n for n, i in id_of.items()},
        "areas": areas,
        "contacts": contacts,
        "arrows": arrows,
        "canals": [{"name": c.name, "area": c.area, "at": areas[c.area].get("pole")} for c in wmap.canals],
        "coasts": coast_groups(pairs, names, {id_of[n] for n in names if wmap.areas[n].land}),
    }
    (out / "geometry.json").write_text(json.dumps(geometry, indent=None, separators=(",", ":"),
                                                  ensure_ascii=False) + "\n")
    print(f"wrote {out / 'areas.png'} and geometry.json", file=sys.stderr)
    if sync:
        sync_seven_ages_map(map_path, geometry)
        wmap = read_map()
    touching = {frozenset(c) for c in contacts}
    for pair in sorted(touching - wmap.borders - wmap.closed, key=sorted):
        print("touch, not a border:", " / ".join(sorted(pair)), file=sys.stderr)
    for pair in sorted(wmap.borders - touching, key=sorted):
        print("border, not touching:", " / ".join(sorted(pair)), file=sys.stderr)
    for name, groups in geometry["coasts"].items():
        declared = sorted(sorted(g) for g in wmap.areas[name].coasts.values())
        if declared != groups:
            print(f"coasts of {name}: raster {groups}, declared {declared}", file=sys.stderr)
    for name, g in areas.items():
        if not g["pixels"]:
            print("no pixels:", name, file=sys.stderr)
    return 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Build a board's land-id raster and geometry.")
    parser.add_argument("--map", type=Path, default=CLASSIC_MAP, help="the map YAML (default: classic)")
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: board/ beside the map)")
    parser.add_argument("--profile", choices=[*sorted(PROFILES), "seven_ages"], default=None,
                        help="flood settings (default: the map's folder name)")
    parser.add_argument("--sync", action="store_true",
                        help="7 Ages only: rewrite map.yaml's borders and coasts from the new raster")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    map_path: Path = args.map.resolve()
    out: Path = args.out.resolve() if args.out is not None else map_path.parent / "board"
    profile_name = args.profile or map_path.parent.name
    if profile_name == "seven_ages":
        return build_seven_ages(map_path, out, sync=args.sync)
    if profile_name not in PROFILES:
        print(f"no flood profile {profile_name!r}; use --profile {sorted(PROFILES)}", file=sys.stderr)
        return 2
    profile = PROFILES[profile_name]
    wmap = load_map(map_path)
    names = list(wmap.lands)
    name_of = {i + 1: n for i, n in enumerate(names)}
    id_of = {n: i for i, n in name_of.items()}
    proj = profile.projection
    print(f"projection: {proj.width}x{proj.height}, scale {proj.scale:.3f} px per weighted degree",
          file=sys.stderr)
    mask = land_mask(proj, profile.water_cuts)
    seeds: list[tuple[int, int, int]] = []
    for name in names:
        for lon, lat in [wmap.lands[name].anchor, *profile.extra_seeds.get(name, [])]:
            x, y = snap(mask, *proj.project(lon, lat))
            seeds.append((x, y, id_of[name]))
    speed = {id_of[n]: s for n, s in profile.speed.items()}
    ids = flood(mask, seeds, speed)
    force_corners(ids, id_of, profile.corners)
    assign_islands(ids, mask)
    ids_u8 = ids.astype(np.uint8)
    out.mkdir(parents=True, exist_ok=True)
    Image.fromarray(ids_u8, mode="L").save(out / "lands.png")

    lands = layout(ids_u8, wmap, name_of)
    waters = water_geometry(ids_u8, wmap, lands, proj)
    pairs = border_pairs(ids_u8)
    straits = []
    walls = []
    for a, b, kind in wmap.edges():
        ia, ib = id_of[a], id_of[b]
        if kind == "strait":
            gap, pa, pb = nearest_gap(ids_u8, ia, ib)
            straits.append({"lands": [a, b], "line": [list(pa), list(pb)], "gap": round(gap, 1)})
        elif kind == "great_wall":
            pts = pairs.get((min(ia, ib), max(ia, ib)), [])
            walls.append({"lands": [a, b], "points": sorted(pts)[::2]})
    geometry = {
        "source": "global-land-mask 1.0 (MIT; GLOBE 1-km data, NOAA); tools/build_map_raster.py",
        "width": proj.width,
        "height": proj.height,
        "off_board": OFF_BOARD,
        "projection": proj.as_json(),
        "ids": {str(i): n for i, n in name_of.items()},
        "lands": {n: lands[n] for n in names},
        "waters": waters,
        "straits": straits,
        "great_wall": walls,
    }
    (out / "geometry.json").write_text(json.dumps(geometry, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {out / 'lands.png'} and geometry.json", file=sys.stderr)
    report(ids_u8, wmap, name_of, pairs)
    return 0


def report(ids: np.ndarray, wmap: Any, name_of: dict[int, str], pairs: dict[tuple[int, int], Any]) -> None:
    """Print where the raster and the rules disagree (the test checks the same)."""
    touching = {frozenset((name_of[a], name_of[b])) for a, b in pairs}
    rules = {frozenset((a, b)): kind for a, b, kind in wmap.edges()}
    for pair in sorted(touching - set(rules), key=sorted):
        print("touch, not adjacent:", " / ".join(sorted(pair)), file=sys.stderr)
    id_of = {v: k for k, v in name_of.items()}
    for pair, kind in rules.items():
        if pair not in touching:
            a, b = sorted(pair)
            gap = nearest_gap(ids, id_of[a], id_of[b])[0]
            print(f"adjacent ({kind or 'border'}), not touching: {a} / {b}: gap {gap:.0f}px", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
