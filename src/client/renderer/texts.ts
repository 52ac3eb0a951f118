// User-visible texts of the renderer. The spec's strings (§5) are exact.
export const IMPORT_FORMAT_ERROR = '附件格式错误，请重新上传！';
export const IMPORT_NO_FILE = '请上传附件！';
export const IMPORT_EXTENSIONS = ['.xlsx', '.xls'] as const;
export const IMPORT_ERRORS_TITLE = '导入失败，以下行有错误（未写入任何数据）';
export const SAVED_TEXT = '保存成功';
export const TOTAL_LABEL = '本页合计';
export const ACTIONS_TITLE = '操作';
