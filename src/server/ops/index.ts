// Every hand-written handler, keyed by the name the endpoint catalog binds (`op:<name>`).
import type { Catalog } from '../../core/catalog.ts';
import type { OpHandler } from '../catalog/context.ts';
import type { RightInfo } from '../catalog/rights-catalog.ts';
import type { ResourceRegistry } from '../resources/index.ts';
import { documentOps, type DocumentType } from '../documents/index.ts';
import { authOps } from './auth-ops.ts';
import { basicSettingsOps } from './basic-settings-ops.ts';
import { commodityExtraOps } from './commodity-extra-ops.ts';
import { inboundOps } from './inbound-ops.ts';
import { financeOps } from './finance-ops.ts';
import { invoiceOps } from './invoice-ops.ts';
import { masterDataOps } from './master-data-ops.ts';
import { masterDataFamiliesOps } from './master-data-families-ops.ts';
import { outboundOps } from './outbound-ops.ts';
import { floorOps } from './floor-ops.ts';
import { priceMatrixOps } from './price-matrix-ops.ts';
import { priceQueryOps } from './price-query-ops.ts';
import { procurementOps } from './procurement-ops.ts';
import { purchaseReturnOps } from './purchase-return-ops.ts';
import { salesOps } from './sales-ops.ts';
import { productDetailOps } from './product-detail-ops.ts';
import { settingsOps } from './settings-ops.ts';
import { stockOps } from './stock-ops.ts';
import { storageOps } from './storage-ops.ts';
import { shareOps } from './share-ops.ts';
import { wallLinkOps } from './wall-link-ops.ts';
import { exportJobOps } from './export-job-ops.ts';
import { reportOps } from './report-ops.ts';
import { systemOps } from './system-ops.ts';

export interface OpsDeps {
  catalog: Catalog;
  rights: RightInfo[];
  resources: ResourceRegistry;
  /** the document types served by the engine (documents/) */
  documents: Map<string, DocumentType>;
}

export function allOps(deps: OpsDeps): Record<string, OpHandler> {
  const rightCodes = deps.rights.map((r) => r.code);
  return {
    ...authOps(() => rightCodes),
    ...settingsOps(deps),
    ...storageOps(deps),
    ...shareOps(deps),
    ...wallLinkOps(),
    ...masterDataOps(deps),
    ...masterDataFamiliesOps(deps),
    ...basicSettingsOps(deps),
    ...stockOps(deps),
    ...procurementOps(deps),
    ...inboundOps(deps),
    ...invoiceOps(deps),
    ...purchaseReturnOps(deps),
    ...salesOps(deps),
    ...outboundOps(deps),
    ...floorOps(deps),
    ...financeOps(deps),
    ...commodityExtraOps(deps),
    ...productDetailOps(deps),
    ...priceMatrixOps(deps),
    ...priceQueryOps(deps),
    ...reportOps(deps),
    ...exportJobOps(deps),
    ...systemOps(deps),
    ...documentOps(deps.documents),
  };
}
