export { EconomicProvider } from './provider';
export { FRED_BASE_URL } from './fred';
export type { FredClientOptions } from './fred';
export { economicParams, UNITS, FREQUENCIES } from './params';
export type { EconomicParams } from './params';
export { FredGraphClient, FREDGRAPH_URL, parseFredGraphCsv } from './fredgraph';
export { fredXmlError, parseFredObservationsXml } from './fred-xml';
