// Response codes shared by server and client (DESIGN §3.3). Every JSON body is {code, msg, data}.

export const OK = '200';
/** Access token missing, invalid or expired: the client refreshes once and retries. */
export const TOKEN_INVALID = '5012';
/** Session ended: refresh token expired, revoked or reused; logged out; password changed. */
export const SESSION_ENDED = '5011';
/** Account or company disabled, or caller's IP not on the company's whitelist. */
export const ACCESS_REFUSED = '5019';
/** Unexpected server error; msg carries an error id findable in the error log. */
export const SERVER_ERROR = '500';

export interface Envelope<T = unknown> {
  code: string;
  msg: string;
  data: T;
}

/**
 * Business codes: NAME_4xxx → Chinese message. `{x}` placeholders are filled by the server.
 * One registry for the whole product; the client reads it for its silent list (spec §8).
 */
export const BUSINESS_CODES = {
  // common
  COMMON_VALIDATION_4000: '{detail}',
  COMMON_BAD_REQUEST_4001: '请求格式错误：{detail}',
  COMMON_NO_RIGHT_4003: '无权限执行“{name}”，请联系管理员授权',
  COMMON_NOT_FOUND_4004: '{entity}不存在或已被删除',
  COMMON_API_NOT_EXIST_4005: '接口不存在：{code}',
  COMMON_METHOD_4006: '接口 {code} 不支持 {method} 请求',
  COMMON_VERSION_CONFLICT_4009: '{entity}已被其他人修改，请刷新后重试',
  COMMON_REFERENCED_4010: '{entity}“{label}”正在被{refEntity}使用，不能删除',
  COMMON_UNIQUE_4011: '{field}“{value}”已存在',
  COMMON_IMPORT_4012: '导入失败：共 {count} 行有错误，未写入任何数据',
  COMMON_IMPORT_FILE_4013: '附件格式错误，请重新上传！',
  COMMON_IMPORT_EMPTY_4014: '请上传附件！',
  COMMON_TOO_LARGE_4015: '请求内容过大',
  COMMON_BUSY_4029: '请求过于频繁，请稍后再试',
  COMMON_STOPPING_4030: '服务器正在停止，本次请求未执行，请稍后重试',
  COMMON_HEADER_4016: '请求头 {name} 缺失或格式不正确',
  COMMON_IMPORT_ROWS_4017: '导入文件最多 {max} 行，当前 {count} 行，请分批导入',
  COMMON_IDEMPOTENCY_KEY_4024: '这次提交的标识已用于内容不同的另一次提交，未执行。请刷新页面后重新提交',
  COMMON_IMPORT_TOO_BIG_4018: '导入文件过大：{detail}，请分批导入',
  // auth
  AUTH_LOGIN_4033: '用户名或密码错误',
  AUTH_LOGIN_LOCKED_4034: '登录失败次数过多，请 {wait}后再试',
  AUTH_COMPANY_4035: '公司代码不存在或已停用',
  AUTH_PASSWORD_4036: '原密码错误',
  AUTH_PASSWORD_WEAK_4037: '{detail}',
  // storage
  STORAGE_TYPE_4041: '不支持的文件类型，仅支持 {allowed}',
  STORAGE_SIZE_4042: '文件过大，最大 {max}',
  STORAGE_NOT_EXIST_4043: '文件不存在',
  STORAGE_SIZE_PARAM_4044: '图片尺寸不支持，可选：{allowed}',
  STORAGE_EMPTY_4045: '请选择要上传的文件',
  STORAGE_NOT_IMAGE_4046: '该文件不是图片，不能按尺寸读取（读取原文件请用尺寸 0）',
  STORAGE_DAMAGED_4047: '图片已损坏、无法识别或像素过多（最多 1 亿像素），请重新上传',
  // products (spec §8; the full set grows with the commodity module)
  PRODUCT_NOT_EXIST_4001: '商品不存在',
  PRODUCT_BIG_QTY_4002: '大包装数量不正确',
  PRODUCT_MID_QTY_4003: '中包装数量不正确',
  PRODUCT_BOX_SPEC_4004: '箱规格式错误，应为“中包装数/大包装数”',
  PRODUCT_PRICE_TITLE_STATUS_4005: '价格表已停用',
  PRODUCT_LOCK_4006: '商品已锁定，不能操作',
  PRODUCT_ATTACHMENT_TYPE_4007: '附件类型错误',
  // master data
  EXCHANGE_RATE_NOT_FOUND_4051: '{currency}在 {date} 及之前没有汇率，请先维护汇率',
  ACCOUNT_SELF_4052: '不能删除或停用当前登录的账号',
  ACCOUNT_ALL_RIGHTS_4054: '账号“{name}”拥有全部权限，只有拥有全部权限的账号才能{action}',
  ROLE_ALL_RIGHTS_4055: '角色“{name}”拥有全部权限，只有拥有全部权限的账号才能{action}',
  ACCOUNT_RIGHTS_BEYOND_4056: '账号“{name}”拥有您没有的权限（{rights}），您不能{action}',
  ROLE_RIGHTS_BEYOND_4057: '角色“{name}”包含您没有的权限（{rights}），您不能{action}',
  ACCOUNT_LAST_ADMIN_4058: '不能{action}：公司至少要保留一个启用的、拥有全部权限的账号',
  IMAGE_NONE_4053: '所选商品没有可下载的图片',
  // basic settings: e-mail
  EMAIL_NOT_CONFIGURED_4061: '未配置邮件服务器（SMTP_HOST），无法发送邮件，请联系管理员',
  EMAIL_SEND_FAILED_4062: '邮件发送失败：{error}',
  EMAIL_TEMPLATE_DISABLED_4063: '邮件模板“{name}”已停用，不能用于发送',
  // stock ledger, locations and stock documents
  STOCK_NOT_ENOUGH_4071: '商品 {code} 在 {place} 的可用库存不足：现有 {onHand}，已预留 {reserved}，需要 {qty}',
  STOCK_RESERVE_NOT_ENOUGH_4072: '商品 {code} 在 {place} 的可预留库存不足：现有 {onHand}，已预留 {reserved}，需要预留 {qty}',
  STOCK_RELEASE_4073: '商品 {code} 在 {place} 的已预留数量不足：已预留 {reserved}，需要释放 {qty}',
  STOCK_LOCATION_REQUIRED_4074: '公司要求出入库指定库位：商品 {code} 在仓库 {warehouse} 的明细未指定库位',
  STOCK_LOCATION_WAREHOUSE_4075: '库位 {location} 不属于仓库 {warehouse}',
  STOCK_LOCATION_LOCKED_4076: '库位 {location} 已锁定，不能出入库',
  STOCK_WAREHOUSE_DISABLED_4077: '仓库 {warehouse} 已停用，不能出入库',
  STOCK_DOC_STATUS_4078: '{doc} {docNo} 当前状态为“{status}”，不能{action}',
  STOCK_LOCATION_NOT_FOUND_4079: '库位 {code} 不存在',
  STOCK_LOCATION_AMBIGUOUS_4080: '库位 {code} 在多个仓库中都存在（{warehouses}），请先选择仓库',
  STOCKTAKE_UNCOUNTED_4251: '盘点单 {docNo} 还有 {count} 行未盘点，请录入数量（空库位录入 0）后再过账',
  STOCKTAKE_OVERLAP_4252: '所选范围与未完成的盘点单 {docNo} 有相同的商品和库位，请先过账或作废该盘点单',
  STOCKTAKE_COUNT_NEGATIVE_4253: '商品 {code} 在库位 {location} 已盘 {counted}，本次 {qty} 后将小于 0，不能录入',
  LABEL_TOKEN_INVALID_4254: '标签二维码无效或已被篡改，请重新打印标签',
  // system tools (issue 17)
  SYSTEM_BACK_ORDER_NOT_OPEN_4501: '销售订单 {docNo} 当前状态为“{status}”，不是未结欠货（部分发货）的订单，不能关闭欠货；请刷新列表后重试',
  // procurement: purchase orders, receiving notes, putaways, document chains
  PURCHASE_DOC_STATUS_4091: '{doc} {docNo} 当前状态为“{status}”，不能{action}',
  PURCHASE_SUPPLIER_DISABLED_4092: '供应商“{name}”已停用，不能用于采购订单',
  PURCHASE_PRODUCT_STOPPED_4093: '商品 {code} 已停售，不能采购',
  PURCHASE_OVER_RECEIPT_4094: '采购订单 {docNo} 第 {line} 行商品 {code} 超收：订购 {ordered}，已收 {received}，本次 {qty}，按超收倍数 {multiple} 最多还可收 {left}',
  PURCHASE_PUTAWAY_OVER_4095: '收货单 {docNo} 第 {line} 行商品 {code} 上架数量超出：收货 {received}，已上架 {done}，本次 {qty}',
  PURCHASE_DEPENDENT_DOCS_4096: '{doc} {docNo} 已有后续单据 {next}，请先作废后续单据',
  PURCHASE_DOC_NOT_FOUND_4097: '没有找到单号为 {docNo} 的采购类单据（采购订单、入库计划、入库任务、收货单、上架单、采购发票、退货出库计划）',
  PURCHASE_OPEN_TASKS_4099: '采购订单 {docNo} 还有未完成的入库任务 {tasks}，请先在入库任务中收货完成或关闭任务，再关闭订单',
  PURCHASE_LINE_MISMATCH_4098: '{doc}第 {line} 行不属于{source} {docNo}',
  // procurement: inbound plans, inbound tasks, containers
  INBOUND_PLAN_OVER_4111: '采购订单 {docNo} 第 {line} 行商品 {code} 计划数量超出：订购 {ordered}，已计划 {planned}，本次 {qty}，最多还可计划 {left}',
  INBOUND_CONTAINER_TAKEN_4112: '集装箱号 {containerNo} 已存在（状态“{status}”），请核对箱号',
  INBOUND_CONTAINER_TYPE_4113: '柜型“{type}”不是本公司的柜型（可选：{allowed}），请在公司参数中维护柜型',
  INBOUND_PLANNED_RECEIPT_4119: '采购订单 {docNo} 第 {line} 行商品 {code} 有 {planned} 在入库任务 {tasks} 中待收货，请在入库任务中收货；不按入库任务本次 {qty}，最多还可收 {left}',
  INBOUND_TASK_ORDER_4114: '入库任务 {taskDocNo} 属于采购订单 {taskOrderDocNo}，不能用于采购订单 {orderDocNo} 的收货单',
  INBOUND_TASK_DRAFT_NOTES_4115: '入库任务 {docNo} 还有未过账的收货单 {notes}，请先过账或作废后再关闭',
  // procurement: purchase invoices, payables, invoice stock
  PURCHASE_INVOICE_OVER_4101: '采购发票第 {line} 行商品 {code} 超出可开票数量：收货单 {docNo} 收货 {received}，已开票 {invoiced}，本次 {qty}，最多还可开 {left}',
  PURCHASE_INVOICE_LINE_4102: '采购发票第 {line} 行不是供应商“{supplier}”已过账的收货明细（收货单 {docNo}，状态“{status}”）',
  PURCHASE_INVOICE_NO_TAKEN_4103: '供应商“{supplier}”的发票号 {invoiceNo} 已登记在采购发票 {docNo}，不能重复登记',
  PURCHASE_INVOICE_PAID_4104: '采购发票 {docNo} 的应付款已付款 {paid}，不能作废',
  PURCHASE_INVOICE_STOCK_4105: '商品 {code} 的发票库存不足，不能作废采购发票 {docNo}：现有 {qty}，需冲回 {need}',
  PURCHASE_RECEIVING_INVOICED_4106: '收货单 {docNo} 已开具采购发票 {invoices}，请先作废采购发票再作废收货单',
  // export centre (background exports)
  EXPORT_NOT_EXPORT_CODE_4181: '接口 {api} 不是导出接口，不能在导出中心导出',
  EXPORT_JOB_NOT_READY_4182: '导出任务“{name}”当前状态为“{status}”，完成后才能{action}',
  EXPORT_FILE_GONE_4183: '导出任务“{name}”的文件已不存在，请重新导出',
  EXPORT_JOB_BUSY_4184: '您已有 {count} 个导出任务正在进行，请等待完成后再导出',
  EXPORT_JOB_EXPIRED_4185: '导出任务不存在，或已超过保留期限（导出文件保留 {days} 天）被自动清理，请重新导出',
  // shared files (/a/{id}, storage 9802xx): what someone opening a link is told, and the sharer's refusals
  SHARE_NOT_FOUND_4301: '链接不存在，请向发送链接的人确认链接是否完整',
  SHARE_EXPIRED_4302: '链接已过期，请联系分享人重新分享',
  SHARE_REVOKED_4303: '链接已被分享人撤销，请联系分享人',
  SHARE_EXHAUSTED_4304: '链接的下载次数已用完（共 {max} 次），请联系分享人重新分享',
  SHARE_FILE_GONE_4305: '分享的文件已不存在（已被删除或已过保留期限），请联系分享人重新分享',
  SHARE_ALREADY_REVOKED_4306: '该分享链接已撤销，无需再次撤销',
  WALL_LINK_INVALID_4310: '大屏链接已失效（已停用或不存在），请向管理员索取新的大屏链接',
  WALL_ALREADY_REVOKED_4311: '该大屏链接已停用，无需再次停用',
  // print marks (oms 023803)
  PRINT_DOC_TYPE_4191: '单据类型“{docType}”不能打印，可选：{allowed}',
  PRINT_DOC_NOT_FOUND_4192: '{doc} {refs} 不存在或不属于本公司，未记录打印',
  // procurement: return outbound plans (returns to suppliers), repeals
  RETURN_OVER_4121: '收货单 {docNo} 第 {line} 行商品 {code} 退货数量超出：收货 {received}，已退 {returned}，本次 {qty}，最多还可退 {left}',
  RETURN_LINE_4122: '退货明细第 {line} 行不是供应商“{supplier}”在仓库 {warehouse} 已过账的收货明细（收货单 {docNo}，状态“{status}”）',
  RETURN_NOTHING_4123: '收货单 {docNo} 没有可退货的商品：已全部退货，或商品已不在仓库 {warehouse} 的库存中',
  RETURN_STOCK_SHORT_4124: '商品 {code} 在仓库 {warehouse} 的可用库存为 {available}，不足退货数量 {qty}，请减少数量或指定库位',
  RETURN_CURRENCY_4125: '退货明细来自不同币种的采购订单（{currencies}），请分开建立退货出库计划',
  RETURN_LAST_LINE_4126: '退货出库计划 {docNo} 至少要保留一行明细；整单不退请作废',
  // sales: orders, price bounds, credit
  SALES_CLIENT_DISABLED_4141: '客户“{name}”已停用，不能用于销售订单',
  SALES_PRODUCT_STOPPED_4142: '商品 {code} 已停售，不能销售',
  SALES_PRICE_LOW_4143: '第 {line} 行商品 {code} 的成交价 {price} 低于最低售价 {bound}（价格表价 {list} × 销售价下限倍数 {multiple}）；超限销售需要“销售订单超限放行”权限',
  SALES_PRICE_HIGH_4144: '第 {line} 行商品 {code} 的成交价 {price} 高于最高售价 {bound}（价格表价 {list} × 销售价上限倍数 {multiple}）；超限销售需要“销售订单超限放行”权限',
  SALES_CREDIT_LIMIT_4145: '客户“{name}”超出信用额度：额度 {limit}，未结应收 {receivable}，未结订单 {open}，本单 {amount}，合计 {total}（本位币）；超额确认需要“销售订单超限放行”权限',
  SALES_PRICE_LIST_4146: '价格表“{name}”已停用，不能用于销售订单',
  SALES_PLAN_OVER_4147: '销售订单 {docNo} 第 {line} 行商品 {code} 计划数量超出：订购 {ordered}，已发货 {shipped}，已计划 {planned}，本次 {qty}，最多还可计划 {left}',
  SALES_OPEN_PLANS_4148: '销售订单 {docNo} 还有未完成的发货计划 {plans}，请先作废发货计划',
  SALES_PRESALE_OVER_4149: '商品 {code} 预售超出预计到货：本单需要 {qty}，可用 {available}，预计到货 {incoming}，已预售 {presold}，还可预售 {left}',
  SALES_CHANGE_QTY_4151: '销售订单 {docNo} 第 {line} 行商品 {code} 的数量不能改为 {qty}：已发货 {shipped}，发货计划已占用 {planned}',
  SALES_PRESALE_PLAN_4150: '商品 {code} 超出预售计划“{plan}”的预售数量：计划 {planQty}，已预售 {sold}，本单 {qty}',
  // sales returns (销售退货单)
  SALES_RETURN_OVER_4156: '销售订单 {docNo} 第 {line} 行商品 {code} 退货数量超出：已发货 {shipped}，已退货 {returned}，本次 {qty}，最多还可退 {left}',
  SALES_RETURN_RECEIVE_OVER_4157: '销售退货单 {docNo} 第 {line} 行商品 {code} 收货数量超出：退货 {qty}，已收 {received}，本次 {ask}，最多还可收 {left}',
  // the outbound floor: outbound tasks, picking orders, delivery notes (issue 14)
  OUTBOUND_TASK_BUSY_4161: '出库任务 {docNo} 已拣货 {picked}，或有未完成的拣货单 {pickings}，不能作废',
  OUTBOUND_PICK_OVER_4162: '出库任务 {docNo} 第 {line} 行商品 {code} 拣货数量超出：计划 {qty}，已拣 {picked}，拣货中 {picking}，本次 {ask}，最多还可拣 {left}',
  OUTBOUND_PICK_NOTHING_4163: '所选出库任务 {tasks} 没有待拣货的商品',
  OUTBOUND_WAVE_WAREHOUSE_4164: '一张拣货单只能包含同一仓库的出库任务：{tasks} 不属于仓库 {warehouse}',
  OUTBOUND_DELIVER_OVER_4165: '出库任务 {docNo} 第 {line} 行商品 {code} 发货数量超出已拣未发数量：已拣 {picked}，已发 {delivered}，本次 {qty}，最多还可发 {left}',
  OUTBOUND_DELIVER_NOTHING_4166: '出库任务 {docNo} 没有已拣货未发货的商品',
  OUTBOUND_SHIP_COMPLETE_4167: '客户要求整单发货：销售订单 {docNo} 第 {line} 行商品 {code} 订购 {ordered}，已发货 {shipped}，本次 {qty}，尚欠 {left}，不能部分发货',
  OUTBOUND_REVERSE_CLOSED_4168: '销售订单 {docNo} 已关闭（欠货已取消），不能作废其送货单 {note}',
  OUTBOUND_TASK_OPEN_4170: '出库任务 {docNo} 还有已拣未发的货物 {staged}，或有未完成的拣货单 {pickings}：请先发货或作废拣货单，再关闭任务',
  OUTBOUND_PICK_DELIVERED_4169: '拣货单 {docNo} 拣出的货物已有发货（送货单 {notes}），请先作废送货单再作废拣货单',
  CARTON_PACK_OVER_4271: '出库任务 {docNo} 第 {line} 行商品 {code} 装箱数量超出已拣未装箱数量：已拣 {picked}，已发 {delivered}，已装箱 {packed}，本次 {ask}，最多还可装 {left}',
  CARTON_ON_LIST_4272: '纸箱 {docNo} 在装车单 {listNo} 上，请先从装车单移除或作废装车单',
  LOADING_CARTON_TAKEN_4273: '纸箱 {cartons} 已被其他装车单装上或已不是已封箱状态',
  LOADING_NOTE_CARTONS_4274: '装车单 {docNo} 的纸箱与送货单 {note} 不一致或已发货（每个出库任务只能由装车单生成一张送货单）',
  LOADING_HAS_NOTE_4275: '装车单 {docNo} 已生成送货单 {note}，请先作废送货单再作废装车单',
  CARTON_NOTHING_4276: '出库任务 {docNo} 没有已拣货未装箱的商品',
  OUTBOUND_DELIVER_PACKED_4277: '出库任务 {docNo} 第 {line} 行商品 {code} 已装箱 {packed}：装箱的货物请由装车单生成送货单；本次 {qty}，最多还可直接发 {left}',
  ELEVATOR_BUSY_4278: '升降柜 {elevator} 的托盘 {tray} 正在口位（任务 {docNo}），请先完成该托盘的作业再呼叫下一个',
  // finance (issue 15): open items, receipts/payments and their allocations, cheques
  FINANCE_OVER_ITEM_4171: '{at}{item} 的未结金额为 {open}，本次核销 {amount} 超出未结金额',
  FINANCE_OVER_PAYMENT_4172: '{at}收付款单 {docNo} 的未核销金额为 {left}，本次核销 {amount} 超出未核销金额',
  FINANCE_ITEM_PARTY_4173: '{at}{item} 不属于收付款单 {docNo} 的往来单位，不能核销',
  FINANCE_ITEM_CLOSED_4174: '{at}{item} 已作废，不能核销',
  FINANCE_CHEQUE_PENDING_4175: '收款单 {docNo} 的支票 {chequeNo} 尚未兑现（到期日 {date}），远期支票兑现前不能核销',
  FINANCE_ITEM_ALLOCATED_4176: '{doc} {docNo} 已核销 {allocated}，不能作废；请先冲销相关收付款单',
  FINANCE_AMOUNT_4177: '{at}核销金额必须大于 0',
  FINANCE_CHEQUE_STATUS_4178: '收款单 {docNo} 的支票当前状态为“{status}”，不能{action}',
  // sales invoices (issue 15; spec §8 names the INVOICE_QTY_ERROR family; the client hands them back silently and the screen shows them with the line)
  INVOICE_QTY_ERROR_4020: '销售发票第 {line} 行商品 {code} 超出可开票数量：送货单 {docNo} 发货 {delivered}，已开票 {invoiced}，本次 {qty}，最多还可开 {left}',
  INVOICE_QTY_ERROR_4025: '销售发票第 {line} 行不是客户“{client}”已发货的送货明细（送货单 {docNo}，状态“{status}”）',
  INVOICE_QTY_ERROR_4026: '红字发票第 {line} 行商品 {code} 超出可冲红数量：原发票 {docNo} 开票 {invoiced}，已冲红 {credited}，本次 {qty}，最多还可冲 {left}',
  SALES_INVOICE_CREDIT_4027: '红字发票的原发票 {docNo} 当前状态为“{status}”，只能对已过账的销售发票开具红字发票',
  SALES_INVOICE_CREDITED_4028: '销售发票 {docNo} 已开具红字发票或折扣发票 {credits}，不能作废；请先作废它们',
  PRINT_FONT_MISSING_4193: '服务器缺少中文字体 {path}，无法生成 PDF（请安装 fonts-noto-cjk，或以 INVOICE_PDF_FONT 指定字体文件）',
  SALES_DISCOUNT_OVER_4029: '折扣发票第 {line} 行超出可折让金额：销售发票 {docNo} 价税合计 {total}，已冲红/折让 {credited}，本次 {amount}，最多还可折让 {left}',
  OUTBOUND_REVERSE_INVOICED_4179: '送货单 {docNo} 已开具销售发票 {invoices}，请先作废销售发票再作废送货单',
  // the document engine (src/server/documents): refusals every document type shares
  DOCUMENT_STATUS_4131: '{doc} {docNo} 当前状态为“{status}”，不能{action}',
  DOCUMENT_NOT_FOUND_4132: '没有找到单号为 {docNo} 的单据',
  REPEAL_DOC_NOT_FOUND_4127: '没有找到单号为 {docNo} 的可撤销单据（{kinds}）',
} as const;

export type BusinessCode = keyof typeof BUSINESS_CODES;

export function formatMessage(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/**
 * Codes the client hands back to the caller with no toast (spec §8). The spec's `{token}` entries are
 * placeholders in the source; the named ones are kept exactly.
 */
export const SILENT_CODES: readonly string[] = [
  'AUTH_LOGIN_4033',
  'INVOICE_QTY_ERROR_4020',
  'INVOICE_QTY_ERROR_4025',
  'INVOICE_QTY_ERROR_4026',
  'PLO_ADD_ERROR_4016',
  'PLO_ADD_ERROR_4023',
  'PLO_ADD_ERROR_4011',
  'PLO_ADD_ERROR_4017',
  'PLO_ADD_ERROR_4027',
  'PLO_NOT_EXIST_4001',
  'PLO_NOT_EXIST_4037',
];

/**
 * Shared-link refusals (SHARE_*) are shown by the page that asked: /a/{id} makes them its content; so are
 * a wall link's (WALL_*) on /wall/{token}.
 */
export function isSilentCode(code: string): boolean {
  return SILENT_CODES.includes(code) || code.startsWith('PRODUCT_') || code.startsWith('SHARE_') || code.startsWith('WALL_');
}
